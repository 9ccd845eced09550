import type { Db } from '../db/database.ts';
import type { Actor } from '../shared/actor.ts';
import type { CursorCodec } from '../shared/cursor.ts';
import type { AuditRepository, AuditRow } from './audit-repository.ts';

export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.enabled',
  'api_key.disabled',
  'api_key.deleted',
  'api_key.expired',
  'user.signed_in',
  'user.sign_in_failed',
  'user.created',
  'user.roles_changed',
  'user.deleted',
  'tenant.authority_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditTarget = { type: 'api_key' | 'user' | 'tenant'; id: string | null; name: string | null };

export type AuditEventView = {
  id: string;
  at: string;
  actor: { type: 'user' | 'system'; id: string | null; email: string | null };
  action: string;
  target: AuditTarget;
  detail: Record<string, unknown>;
};

const isPosition = (value: unknown): value is { id: number } =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as { id: unknown }).id);

/** The tenant's trail of who did what (AuditEvent in docs/api.md). */
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
    private readonly cursors: CursorCodec,
  ) {}

  /** Written inside the caller's transaction, so an event exists exactly when its change does. */
  async record(
    tx: Db,
    tenantId: string,
    actor: Actor | { type: 'user'; id: string | null; email: string },
    action: AuditAction,
    target: AuditTarget,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await this.repository.insert(tx, {
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

  async list(tenantId: string, limit: number, cursor?: string): Promise<{ data: AuditEventView[]; next_cursor: string | null }> {
    const before = cursor ? this.cursors.decode(cursor, `audit:${tenantId}`, isPosition).id : undefined;
    const rows = await this.repository.list(tenantId, limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page.map(toView),
      next_cursor: rows.length > limit && last ? this.cursors.encode({ id: last.id }, `audit:${tenantId}`) : null,
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
