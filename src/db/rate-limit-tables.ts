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
