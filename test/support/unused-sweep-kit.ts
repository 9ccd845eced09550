import { and, asc, eq } from 'drizzle-orm';
import { webhookEvents } from '../../src/db/webhook-tables.ts';
import { UnusedKeySweep } from '../../src/keys/sweeps/unused-sweep.ts';
import type { ServiceRoot } from '../../src/app/services.ts';
import type { Clock } from '../../src/shared/clock.ts';
import { insertWebhook } from './webhook-kit.ts';

export const DAY = 86_400_000;

/**
 * An unused-key sweep over `services` that waits its grace with `sleep` (by default: the manual
 * clock moves on, no real time passes). USAGE_FLUSH_MS is short so the grace is too.
 */
export function unusedSweep(
  services: ServiceRoot,
  clock: Clock & { advance(ms: number): void },
  sleep: (ms: number) => Promise<void> = (ms) => Promise.resolve(clock.advance(ms)),
  usageFlushMs = 50,
): UnusedKeySweep {
  return new UnusedKeySweep({
    uow: services.uow,
    audit: services.audit,
    clock,
    intervalMs: 3_600_000,
    usageFlushMs,
    sleep,
  });
}

/** A webhook endpoint for every event, so the tenant's events are recorded in the outbox (never delivered). */
export async function recordEventsOf(services: ServiceRoot, tenantId: string): Promise<void> {
  await insertWebhook(services.database.db, services.webhooks.secrets, tenantId, 'https://hooks.invalid/in');
}

/** The outbox's events of one type for a tenant, oldest first, as delivered bodies. */
export async function eventsOf(services: ServiceRoot, tenantId: string, type: string) {
  const rows = await services.database.db
    .select({ body: webhookEvents.body })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.tenantId, tenantId), eq(webhookEvents.type, type)))
    .orderBy(asc(webhookEvents.createdAt));
  return rows.map((row) => row.body as { data: Record<string, unknown> & { api_key: { id: string } } });
}
