import type { Db } from '../db/handle.ts';
import { requirePermission, type Actor } from '../shared/actor.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { CursorCodec } from '../shared/cursor.ts';
import type { AuditRepository, AuditRow } from './audit-repository.ts';
import type { AuditAction, AuditEventView, AuditPage, AuditTarget } from './audit-schemas.ts';

const isPosition = (value: unknown): value is { id: number } =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as { id: unknown }).id);

export type AuditServiceOptions = {
  repository: AuditRepository;
  cursors: CursorCodec;
};

/** The tenant's trail of who did what (AuditEvent in docs/api.md). */
export class AuditService {
  private readonly options: AuditServiceOptions;
  constructor(options: AuditServiceOptions) {
    this.options = options;
  }

  /**
   * Written inside the caller's transaction, so an event exists exactly when its change does. Every
   * event belongs to a tenant: one that none owns yet (an OAuth client registering itself) waits
   * for the first tenant it concerns (`recordFirst`), since no trail would show it before.
   */
  async record(
    tx: Db,
    tenantId: string,
    actor: Actor | { type: 'user'; id: string | null; email: string },
    action: AuditAction,
    target: AuditTarget,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await this.options.repository.insert(tx, {
      tenantId,
      actorType: actor.type,
      actorId: actor.type === 'user' ? actor.id : null,
      actorEmail: actor.type === 'user' ? actor.email : null,
      action,
      targetType: target.type,
      targetId: target.id,
      targetName: target.name,
      detail,
    });
  }

  /**
   * As `record`, unless the tenant's trail already has this action about this target: the first
   * time only. The check and the insert hold a lock on the three together, so two instances
   * approving at once write one event, not two.
   */
  async recordFirst(
    tx: Db,
    tenantId: string,
    actor: Actor,
    action: AuditAction,
    target: AuditTarget & { id: string },
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await tx.transaction(async (inner) => {
      await this.options.repository.lockFirst(inner, tenantId, action, target.id);
      if (await this.options.repository.has(inner, tenantId, action, target.id)) return;
      await this.record(inner, tenantId, actor, action, target, detail);
    });
  }

  /** A tenant's trail, newest first; needs `audit:read`, and a user reads only their own tenant's. */
  async list(actor: Actor, tenantId: string, limit: number, cursor?: string): Promise<AuditPage> {
    requirePermission(actor, 'audit:read');
    if (actor.type === 'user' && actor.tenantId !== tenantId) throw new NotFoundError('tenant');
    const before = cursor ? this.options.cursors.decode(cursor, `audit:${tenantId}`, isPosition).id : undefined;
    const rows = await this.options.repository.list(tenantId, limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page.map(toView),
      next_cursor:
        rows.length > limit && last ? this.options.cursors.encode({ id: last.id }, `audit:${tenantId}`) : null,
    };
  }
}

function toView(row: AuditRow): AuditEventView {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: { type: row.actorType, id: row.actorId, email: row.actorEmail },
    action: row.action,
    target: { type: row.targetType as AuditTarget['type'], id: row.targetId, name: row.targetName },
    detail: row.detail,
  };
}
