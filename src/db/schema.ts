import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  /** 'creator': a key acts as its creator; 'system': as a system user (docs/roles.md). */
  keyAuthority: text('key_authority', { enum: ['creator', 'system'] })
    .notNull()
    .default('creator'),
  /** Who must hold a second factor to use the back office (docs/sign-in.md). */
  secondFactorRequired: text('second_factor_required', { enum: ['none', 'key_managers', 'everyone'] })
    .notNull()
    .default('none'),
  /** False: people sign in through the tenant's identity provider only. */
  passwordSignIn: boolean('password_sign_in').notNull().default(true),
  /** Who may approve an OAuth app for themselves (docs/oauth.md). */
  oauthApps: text('oauth_apps', { enum: ['off', 'key_managers', 'everyone'] })
    .notNull()
    .default('key_managers'),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Stored lower-cased; unique across tenants so the CLI can name a user by e-mail alone. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id; null for a user who signs in through single sign-on only. */
    passwordHash: text('password_hash'),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_tenant_idx').on(t.tenantId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 of the cookie value: a database dump does not yield live sessions. */
    tokenDigest: text('token_digest').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: createdAt(),
    /** The absolute end: SESSION_MAX_HOURS after sign-in, whatever happens meanwhile. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The last request, for the idle limit (written at most every few seconds, see SessionRepository). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Sign-in or the last re-authentication: sensitive actions need it recent. */
    authenticatedAt: timestamp('authenticated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** How the session was opened: password, totp, passkey, recovery_code or sso. */
    // The methods of sessions/session-rules.ts (SIGN_IN_METHODS): db/ imports no feature.
    method: text('method', { enum: ['password', 'totp', 'passkey', 'recovery_code', 'sso'] })
      .notNull()
      .default('password'),
    /** The client address and browser at sign-in, for the person's list of sessions. */
    address: text('address').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [uniqueIndex('sessions_token_digest_unique').on(t.tokenDigest), index('sessions_user_idx').on(t.userId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 'ask_…' plus the secret's last four characters. */
    hint: text('hint').notNull(),
    /** Hex SHA-256 of the whole secret; the secret itself is never stored. */
    secretDigest: text('secret_digest').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** The instant the key stops working: 00:00:00 UTC of the chosen date. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    /** Set once the api_key.expired audit event has been written, so it is written once. */
    expiryRecorded: boolean('expiry_recorded').notNull().default(false),
    /** A rolled key's last instant: refused from then on, then deleted by the sweep. */
    retiresAt: timestamp('retires_at', { withTimezone: true, mode: 'date' }),
    /**
     * False for keys minted before secrets carried a checksum. While any such key remains, a bad
     * checksum still goes through the lookup; once none does, it is refused offline.
     */
    hasChecksum: boolean('has_checksum').notNull().default(true),
    /** At most this many accepted requests per `rateLimitWindow` (docs/keys.md); null: no limit. */
    rateLimitRequests: integer('rate_limit_requests'),
    rateLimitWindow: text('rate_limit_window', { enum: ['1s', '1m', '1h', '1d'] }),
    /** The smallest `api_key.expiring` threshold (7 or 1 days) already announced, so each is sent once. */
    expiringNoticeDays: integer('expiring_notice_days'),
    /**
     * The unused-key sweep (docs/keys.md (Key policy)). A key is idle since the latest of its
     * creation, its last use and `activeSince` (set when it is enabled, so its clock restarts).
     */
    activeSince: timestamp('active_since', { withTimezone: true, mode: 'date' }),
    /** The idle-since instant the `api_key.unused` warning was sent for: a use or an enable makes it stale. */
    unusedNoticeFor: timestamp('unused_notice_for', { withTimezone: true, mode: 'date' }),
    /** The idle-since instant a sweep claimed the key for disabling, and when; see UnusedKeySweep. */
    unusedClaimFor: timestamp('unused_claim_for', { withTimezone: true, mode: 'date' }),
    unusedClaimedAt: timestamp('unused_claimed_at', { withTimezone: true, mode: 'date' }),
    /** Canonical addresses and ranges the key may be used from (docs/keys.md); null: any address. */
    allowedIps: text('allowed_ips').array(),
    /** The last address a request with the key was refused from for its address, written behind. */
    lastRefusedIp: text('last_refused_ip'),
    lastRefusedAt: timestamp('last_refused_at', { withTimezone: true, mode: 'date' }),
    /** At most this many accepted requests per `quotaPeriod` (docs/keys.md (Quotas)); null: no quota. */
    quotaRequests: integer('quota_requests'),
    quotaPeriod: text('quota_period', { enum: ['day', 'month', 'total'] }),
    /**
     * Whose count of `quota_periods` the key spends: its own id when null, its predecessor's
     * counter after a roll, so a successor carries what was used.
     */
    quotaCounter: uuid('quota_counter'),
  },
  (t) => [
    uniqueIndex('api_keys_secret_digest_unique').on(t.secretDigest),
    index('api_keys_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('api_keys_created_by_idx').on(t.createdBy),
    index('api_keys_retires_at_idx')
      .on(t.retiresAt)
      .where(sql`retires_at is not null`),
    index('api_keys_legacy_idx')
      .on(t.id)
      .where(sql`not has_checksum`),
  ],
);

/** A tenant's key policy (docs/keys.md (Key policy)); no row: the defaults, nothing required. */
export const keyPolicies = pgTable('key_policies', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  maxLifetimeDays: integer('max_lifetime_days'),
  requireExpiry: boolean('require_expiry').notNull().default(false),
  disableUnusedAfterDays: integer('disable_unused_after_days'),
  requireAllowedIps: boolean('require_allowed_ips').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null only in rows written before registrations waited for a tenant (docs/oauth.md). */
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorType: text('actor_type', { enum: ['user', 'system'] }).notNull(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    targetName: text('target_name'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('audit_events_tenant_id_idx').on(t.tenantId, t.id)],
);

export const flights = pgTable(
  'flights',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    flightNumber: text('flight_number').notNull(),
    origin: text('origin').notNull(),
    destination: text('destination').notNull(),
    scheduledDeparture: timestamp('scheduled_departure', { withTimezone: true, mode: 'date' }).notNull(),
    scheduledArrival: timestamp('scheduled_arrival', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status', {
      enum: ['scheduled', 'boarding', 'departed', 'arrived', 'delayed', 'cancelled'],
    }).notNull(),
    aircraftRegistration: text('aircraft_registration').notNull(),
    aircraftType: text('aircraft_type').notNull(),
  },
  (t) => [index('flights_tenant_departure_idx').on(t.tenantId, t.scheduledDeparture, t.id)],
);

/**
 * Requests per key and hour, added up from every instance's write-behind (an upsert that adds).
 * Deleting a key deletes its rows; the tenant's own rows below keep counting it.
 */
export const keyUsage = pgTable(
  'key_usage',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull(),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    ok: bigint('ok', { mode: 'number' }).notNull().default(0),
    rejected: bigint('rejected', { mode: 'number' }).notNull().default(0),
    rateLimited: bigint('rate_limited', { mode: 'number' }).notNull().default(0),
    ipRefused: bigint('ip_refused', { mode: 'number' }).notNull().default(0),
    quotaExceeded: bigint('quota_exceeded', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.hour] }), index('key_usage_tenant_hour_idx').on(t.tenantId, t.hour)],
);

/** Requests per tenant and hour, deleted keys included. */
export const tenantUsage = pgTable(
  'tenant_usage',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    ok: bigint('ok', { mode: 'number' }).notNull().default(0),
    rejected: bigint('rejected', { mode: 'number' }).notNull().default(0),
    rateLimited: bigint('rate_limited', { mode: 'number' }).notNull().default(0),
    ipRefused: bigint('ip_refused', { mode: 'number' }).notNull().default(0),
    quotaExceeded: bigint('quota_exceeded', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.hour] })],
);
