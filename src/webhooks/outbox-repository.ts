import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants } from '../db/schema.ts';
import { webhookDeliveries, webhookEvents, webhooks } from '../db/webhook-tables.ts';
import type { EventRecord } from '../shared/event-types.ts';

/** The outbox's statements, each in the caller's transaction. */

/** An endpoint an event goes to, and its tenant's slug (the event's body names the tenant). */
export type OutboxTarget = { id: string; slug: string };

export type NewOutboxEvent = Pick<typeof webhookEvents.$inferInsert, 'tenantId' | 'type' | 'body' | 'createdAt'>;

/**
 * The enabled endpoints of the event's tenant subscribed to its type; with `onlyWebhookId`, that
 * endpoint of the tenant alone, whatever it subscribes to and whether enabled or not.
 */
export function findOutboxTargets(
  tx: Db,
  event: Pick<EventRecord, 'tenantId' | 'type'>,
  onlyWebhookId?: string,
): Promise<OutboxTarget[]> {
  return tx
    .select({ id: webhooks.id, slug: tenants.slug })
    .from(webhooks)
    .innerJoin(tenants, eq(tenants.id, webhooks.tenantId))
    .where(
      onlyWebhookId === undefined
        ? and(
            eq(webhooks.tenantId, event.tenantId),
            eq(webhooks.enabled, true),
            sql`${event.type} = any(${webhooks.events})`,
          )
        : and(eq(webhooks.tenantId, event.tenantId), eq(webhooks.id, onlyWebhookId)),
    );
}

/** The event's row; returns its id. */
export async function insertOutboxEvent(tx: Db, event: NewOutboxEvent): Promise<string> {
  const [row] = await tx.insert(webhookEvents).values(event).returning({ id: webhookEvents.id });
  return row!.id;
}

/** One pending delivery of the event per endpoint, due at `due`; returns their ids. */
export async function insertPendingDeliveries(
  tx: Db,
  eventId: string,
  webhookIds: readonly string[],
  due: Date,
): Promise<string[]> {
  const deliveries = await tx
    .insert(webhookDeliveries)
    .values(webhookIds.map((webhookId) => ({ webhookId, eventId, nextAttemptAt: due })))
    .returning({ id: webhookDeliveries.id });
  return deliveries.map((delivery) => delivery.id);
}
