import type { Db } from '../db/handle.ts';
import { systemClock, type Clock } from '../shared/clock.ts';
import type { EventRecord } from '../shared/event-types.ts';
import { findOutboxTargets, insertOutboxEvent, insertPendingDeliveries } from './outbox-repository.ts';

/** Writes an event and its deliveries in the caller's transaction; returns the delivery ids. */
export type OutboxWriter = (tx: Db, event: EventRecord, onlyWebhookId?: string) => Promise<string[]>;

/**
 * The outbox writer (the unit of work's `EventOutbox` port, and the webhook service's test sends).
 * An event without its own instant is stamped by `clock`, the services' clock; its deliveries are
 * due at once by `wallClock`, the time the delivery worker schedules in (src/webhooks/delivery-worker.ts).
 */
export function eventOutbox(clock: Clock, wallClock: Clock = systemClock): OutboxWriter {
  return (tx, event, onlyWebhookId) => recordEvent(tx, event, { at: clock.now(), due: wallClock.now() }, onlyWebhookId);
}

/**
 * Inside a unit of work's transaction: the event row plus one pending delivery per enabled endpoint
 * of the tenant subscribed to its type (or only to `onlyWebhookId`, whatever it subscribes to).
 * Returns the delivery ids. A tenant with no such endpoint gets no row at all: nobody would read it.
 */
async function recordEvent(
  tx: Db,
  event: EventRecord,
  now: { at: Date; due: Date },
  onlyWebhookId?: string,
): Promise<string[]> {
  const targets = await findOutboxTargets(tx, event, onlyWebhookId);
  const first = targets[0];
  if (!first) return [];
  const at = event.at ?? now.at;
  const body = {
    type: event.type,
    timestamp: at.toISOString(),
    data: { tenant: { id: event.tenantId, slug: first.slug }, ...event.data },
  };
  const eventId = await insertOutboxEvent(tx, { tenantId: event.tenantId, type: event.type, body, createdAt: at });
  const webhookIds = targets.map((target) => target.id);
  return insertPendingDeliveries(tx, eventId, webhookIds, now.due);
}
