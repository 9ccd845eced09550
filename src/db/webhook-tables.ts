import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './schema.ts';

/** A tenant's webhook endpoint (docs/webhooks.md). Secrets are stored encrypted, never in clear. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** The event types it receives. */
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** null while enabled; 'disabled_by_user' or 'gone' (the endpoint answered 410). */
    disabledReason: text('disabled_reason'),
    /** The signing secret, encrypted (never the `whsec_` text itself). */
    secretSealed: text('secret_sealed').notNull(),
    /** The secret before the last rotation, still signed with until `previousSecretUntil`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * The outbox: one row per event, written in the transaction of the change that caused it. `body`
 * is the delivered JSON `{type, timestamp, data}`, frozen when the change commits.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

/** One event to one endpoint, with every attempt; claimed by one instance at a time. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    /** 'pending', 'delivered' or 'failed'. */
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    /** `[{at, status_code, error, duration_ms}]`, oldest first. */
    attempts: jsonb('attempts').$type<unknown[]>().notNull().default([]),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    /** While an instance is sending it: others leave it alone until then (a crashed sender's claim lapses). */
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_created_idx').on(t.createdAt),
  ],
);
