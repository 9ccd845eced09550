import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { auditEvents } from '../db/schema.ts';

export type AuditRow = typeof auditEvents.$inferSelect;
export type NewAuditEvent = typeof auditEvents.$inferInsert;

export class AuditRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async insert(tx: Db, event: NewAuditEvent): Promise<void> {
    await tx.insert(auditEvents).values(event);
  }

  /** Held until `tx` ends: whoever checks `has` for these three next waits for this transaction. */
  async lockFirst(tx: Db, tenantId: string, action: string, targetId: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`audit:${tenantId}:${action}:${targetId}`}))`);
  }

  /** Whether the tenant's trail already holds `action` about the target `targetId`. */
  async has(tx: Db, tenantId: string, action: string, targetId: string): Promise<boolean> {
    const [row] = await tx
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, action), eq(auditEvents.targetId, targetId)),
      )
      .limit(1);
    return row !== undefined;
  }

  /** Newest first; `beforeId` continues a page. */
  async list(tenantId: string, limit: number, beforeId?: number): Promise<AuditRow[]> {
    return this.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), beforeId === undefined ? undefined : lt(auditEvents.id, beforeId)))
      .orderBy(desc(auditEvents.id))
      .limit(limit);
  }
}
