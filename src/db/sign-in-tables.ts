import { bigint, index, integer, pgTable, text, timestamp, uuid, boolean } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const userId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * A password accepted for a user who has a second factor: the cookie it gives opens only the
 * second-factor step (docs/sign-in.md). Kept through wrong codes, gone once the step succeeds.
 */
export const pendingSignIns = pgTable('pending_sign_ins', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** SHA-256 of the pending cookie's value. */
  tokenDigest: text('token_digest').notNull().unique(),
  userId: userId(),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
});

/**
 * A user's authenticator app (RFC 6238), one per user. A new secret waits in `pendingSecretSealed`
 * until a code from it is given; only then does it replace the one in use (a phone changed).
 */
export const totpFactors = pgTable('totp_factors', {
  userId: userId().primaryKey(),
  /** The shared secret in use, sealed with the instance's sealing key (never stored in clear); null until confirmed. */
  secretSealed: text('secret_sealed'),
  pendingSecretSealed: text('pending_secret_sealed'),
  confirmedAt: at('confirmed_at'),
  /** The time step of the last code accepted: a code of that step or an earlier one is refused. */
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** WebAuthn credentials (passkeys): the public key only; the private key never leaves the authenticator. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userId(),
    /** The credential id, base64url, as the browser reports it. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/** Single-use codes standing in for a lost factor; argon2id hashes only. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userId(),
    codeHash: text('code_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * WebAuthn challenges handed out and not yet answered: each is taken (deleted) by the one answer
 * that may use it, so a replayed assertion finds none.
 */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  /** sign_in (a passkey alone), second_factor, reauthenticate or register. */
  purpose: text('purpose').notNull(),
  /** The user it was issued to; null for a passkey sign-in, where nobody is known yet. */
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: at('expires_at').notNull(),
});

/**
 * Sign-in attempts counted per key (an account and client, or an account alone) in a fixed window
 * that starts at its first attempt, shared by every instance on PostgreSQL without Redis. Rows of
 * ended windows are pruned with the abandoned sign-ins.
 */
export const signInAttempts = pgTable('sign_in_attempts', {
  key: text('key').primaryKey(),
  windowStart: at('window_start').notNull(),
  count: integer('count').notNull(),
});
