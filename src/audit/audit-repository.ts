import { and, desc, eq, lt } from 'drizzle-orm';
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
