import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Instance-wide secrets shared by every instance on one database (the cursor signing key). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * The serving instances on a shared PostgreSQL (docs/keys.md (Revocation)). Each holds a lease it renews on its
 * listener connection; it answers from its cache only while the lease holds, and a revoking write
 * waits for every instance with a live lease to acknowledge the change, or for that lease to run
 * out. Times are the database's clock (`now()`), so writers and instances never compare clocks.
 */
export const instances = pgTable('instances', {
  id: uuid('id').primaryKey(),
  pid: integer('pid').notNull(),
  host: text('host').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }).notNull(),
});
