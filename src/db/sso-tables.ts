import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { tenants, users } from './schema.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A tenant's own identity provider (docs/sso.md): one per tenant, the client secret sealed. */
export const ssoConfigurations = pgTable('sso_configurations', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  /** Sealed with the instance's sealing key, as webhook secrets are; never returned. */
  clientSecretSealed: text('client_secret_sealed').notNull(),
  /** Lower-cased e-mail domains whose people may sign in (exact match). */
  allowedDomains: text('allowed_domains').array().notNull(),
  defaultRoles: text('default_roles')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  roleClaim: text('role_claim'),
  /** Claim value → roles. */
  roleMap: jsonb('role_map').$type<Record<string, string[]>>().notNull().default({}),
  createUsers: boolean('create_users').notNull().default(false),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * Which tenant an e-mail domain belongs to for single sign-on: the primary key holds a domain to
 * one tenant even when two save it at once (the loser gets 409 `domain_taken`). Kept equal to each
 * provider's `allowed_domains` by the repository that saves them.
 */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => ssoConfigurations.tenantId, { onDelete: 'cascade' }),
  },
  (t) => [index('sso_domains_tenant_idx').on(t.tenantId)],
);

/**
 * Who a provider says a user is: the pair (issuer, sub) is the identity; a `sub` means nothing
 * outside its issuer, so it is never looked up alone.
 */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('sso_identities_user_idx').on(t.userId)],
);

/**
 * A sign-in sent to the provider. Found by its state, taken (marked used) by the one callback that
 * uses it, and bound to the browser that started it and the issuer it went to.
 */
export const ssoFlows = pgTable('sso_flows', {
  /** SHA-256 of the `state` parameter. */
  stateDigest: text('state_digest').primaryKey(),
  /** SHA-256 of the browser's flow cookie: a state carried to another browser is refused. */
  browserDigest: text('browser_digest').notNull(),
  tenantId: uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  /** The path to return to after sign-in (already checked to be a path of this server). */
  next: text('next'),
  /** Set for a re-authentication (max_age=0): its answer must be the same user and session, or it is refused. */
  reauthSessionId: uuid('reauth_session_id'),
  reauthUserId: uuid('reauth_user_id'),
  expiresAt: at('expires_at').notNull(),
  /** Set by the callback that takes it; kept until it expires, so a replay is recognised and audited. */
  usedAt: at('used_at'),
});
