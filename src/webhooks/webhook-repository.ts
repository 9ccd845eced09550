import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants } from '../db/schema.ts';
import { webhookDeliveries, webhookEvents, webhooks } from '../db/webhook-tables.ts';

export type WebhookRow = typeof webhooks.$inferSelect;
export type NewWebhookRow = typeof webhooks.$inferInsert;
export type WebhookChanges = Partial<Pick<WebhookRow, 'url' | 'description' | 'events' | 'enabled' | 'disabledReason'>>;
/** A delivery as the log shows it; `createdAtText` keeps the database's microseconds for cursors. */
export type DeliveryRow = Pick<
  typeof webhookDeliveries.$inferSelect,
  'id' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt'
> & { eventType: string; createdAtText: string };
export type DeliveryPosition = { at: string; id: string };

const deliveryColumns = {
  id: webhookDeliveries.id,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  createdAt: webhookDeliveries.createdAt,
  createdAtText: sql<string>`${webhookDeliveries.createdAt}::text`,
  eventType: webhookEvents.type,
};

/** The only place that knows how webhook endpoints and their delivery log are stored. */
export class WebhookRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Serialises a tenant's endpoint changes (the limit check), and names the tenant for events. */
  async lockTenant(tx: Db, tenantId: string): Promise<{ id: string; slug: string }> {
    const [row] = await tx
      .select({ id: tenants.id, slug: tenants.slug })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .for('update');
    if (!row) throw new Error('The tenant of a signed-in user no longer exists');
    return row;
  }

  async countForTenant(tx: Db, tenantId: string): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.tenantId, tenantId));
    return row?.n ?? 0;
  }

  async insert(tx: Db, row: NewWebhookRow): Promise<WebhookRow> {
    const [inserted] = await tx.insert(webhooks).values(row).returning();
    return inserted!;
  }

  /** Oldest first, so an endpoint keeps its place in the list. */
  async listForTenant(tenantId: string): Promise<WebhookRow[]> {
    return this.db.select().from(webhooks).where(eq(webhooks.tenantId, tenantId)).orderBy(webhooks.createdAt);
  }

  /** Scoped by tenant: another tenant's id finds nothing. `forUpdate` holds it for a change. */
  async findForTenant(
    tx: Db | undefined,
    tenantId: string,
    id: string,
    forUpdate = false,
  ): Promise<WebhookRow | undefined> {
    const query = (tx ?? this.db)
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.tenantId, tenantId), eq(webhooks.id, id)));
    const [row] = forUpdate ? await query.for('update') : await query;
    return row;
  }

  async update(tx: Db, id: string, changes: WebhookChanges): Promise<WebhookRow> {
    const [row] = await tx.update(webhooks).set(changes).where(eq(webhooks.id, id)).returning();
    return row!;
  }

  async setSecret(tx: Db, id: string, sealed: string, previousSealed: string, previousUntil: Date): Promise<void> {
    await tx
      .update(webhooks)
      .set({ secretSealed: sealed, previousSecretSealed: previousSealed, previousSecretUntil: previousUntil })
      .where(eq(webhooks.id, id));
  }

  /** Its deliveries go with it (foreign key cascade). */
  async delete(tx: Db, id: string): Promise<void> {
    await tx.delete(webhooks).where(eq(webhooks.id, id));
  }

  /** Newest first; `after` continues a page. */
  async listDeliveries(webhookId: string, limit: number, after?: DeliveryPosition): Promise<DeliveryRow[]> {
    const continued = after
      ? sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : undefined;
    return this.db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.webhookId, webhookId), continued))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit);
  }

  /** Scoped by endpoint: a delivery of another endpoint finds nothing. */
  async findDelivery(tx: Db, webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    const [row] = await tx
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.id, deliveryId)));
    return row;
  }

  /** Due now, whatever it was: the worker picks it up on its next look. */
  async requeueDelivery(tx: Db, deliveryId: string, now: Date): Promise<void> {
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now })
      .where(eq(webhookDeliveries.id, deliveryId));
  }
}
