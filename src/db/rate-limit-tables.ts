import { boolean, integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One key in one fixed window (docs/keys.md (Rate limits)). `used` is the shared budget in
 * PostgreSQL mode without Redis: what instances have leased, spent or not, so the sum over
 * instances can never pass the limit. `refusalNoticed` serves every mode: the window's first
 * refusal is announced once, whichever instance saw it. Rows of past windows are pruned.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    keyId: uuid('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    used: integer('used').notNull().default(0),
    /** Set by the first instance to announce the key's first refusal in this window (api_key.rate_limited). */
    refusalNoticed: boolean('refusal_noticed').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);

/**
 * One quota counter in one period (docs/keys.md (Quotas)): `window_start` is the period's first
 * instant (midnight UTC of the day or the 1st of the month; the epoch for `total`). `used` is what
 * instances have leased, in both modes (a month must survive a restart), so the sum can never
 * pass the quota; `spent` is what they accepted, written behind, for the key's view. The notices
 * make `api_key.quota_low` and `api_key.quota_exhausted` once per period across instances.
 */
export const quotaPeriods = pgTable(
  'quota_periods',
  {
    keyId: uuid('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    used: integer('used').notNull().default(0),
    spent: integer('spent').notNull().default(0),
    lowNoticed: boolean('low_noticed').notNull().default(false),
    exhaustedNoticed: boolean('exhausted_noticed').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);

/**
 * What each live instance holds of a quota period, leased and not yet spent, as of its last flush.
 * The key's `used` is what was leased minus what live instances hold: a crashed instance's slice
 * (held, or spent and never reported) counts as used, as the quota itself counts it.
 */
export const quotaHoldings = pgTable(
  'quota_holdings',
  {
    instanceId: uuid('instance_id').notNull(),
    keyId: uuid('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    held: integer('held').notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.keyId, t.windowStart] })],
);
