import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Everything the OAuth authorization server keeps (docs/oauth.md): one row per record of
 * oidc-provider's models (grants, codes, tokens, sessions, interactions, registered clients). A
 * record is found by the SHA-256 of its id, so a token, code or session cookie (which are their own
 * ids) never sits in the table in a usable form.
 */
export const oauthRecords = pgTable(
  'oauth_records',
  {
    /** The provider's model name: AccessToken, RefreshToken, Grant, Session, Client, … */
    kind: text('kind').notNull(),
    /** Hex SHA-256 of the record's id. */
    idDigest: text('id_digest').notNull(),
    /** The record as the provider wrote it, less its id. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** The grant a code or token belongs to: revoking the grant deletes them together. */
    grantId: text('grant_id'),
    /** A session's or interaction's uid (the provider looks sessions up by it). */
    uid: text('uid'),
    /** Null for a record that never expires (a registered client). */
    expiresAt: at('expires_at'),
    /** A code or refresh token already used (a second use is a replay). */
    consumedAt: at('consumed_at'),
    /** A grant's or registered client's last token issued: each use pushes its expiry on. */
    lastUsedAt: at('last_used_at'),
    /** A grant's app, as the consent page named it (Connected apps lists it without a fetch). */
    appName: text('app_name'),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.idDigest] }),
    index('oauth_records_grant_idx')
      .on(t.grantId)
      .where(sql`grant_id is not null`),
    index('oauth_records_uid_idx')
      .on(t.kind, t.uid)
      .where(sql`uid is not null`),
    index('oauth_records_expires_idx')
      .on(t.expiresAt)
      .where(sql`expires_at is not null`),
  ],
);
