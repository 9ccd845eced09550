import { integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The shared budget of one key in one fixed window (docs/keys.md (Rate limits)): `used` counts what
 * instances have leased, spent or not, so the sum over instances can never pass the limit. Only
 * PostgreSQL mode without Redis uses it; rows of past windows are pruned.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    keyId: uuid('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);
