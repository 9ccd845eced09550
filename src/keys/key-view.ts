import { expiryDateOf, isExpired } from './expiry.ts';
import type { KeyListRow } from './key-repository.ts';
import type { ApiKeyView, DisabledReason } from './key-schemas.ts';

/** A stored key as the back office sees it; `status` is derived against the clock now. */
export function toApiKeyView(row: KeyListRow, nowMs: number): ApiKeyView {
  const expired = isExpired(row.expiresAt, nowMs);
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy && row.creatorEmail ? { id: row.createdBy, email: row.creatorEmail } : null,
    expires_at: row.expiresAt ? expiryDateOf(row.expiresAt) : null,
    expires_at_time: row.expiresAt?.toISOString() ?? null,
    enabled: row.enabled,
    status: expired ? 'expired' : row.enabled ? 'enabled' : 'disabled',
    disabled_reason: row.disabledReason as DisabledReason | null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    retires_at: row.retiresAt?.toISOString() ?? null,
  };
}

/** How the audit trail names a key: the row goes, the trail keeps id and name. */
export function keyTarget(key: { id: string; name: string }) {
  return { type: 'api_key' as const, id: key.id, name: key.name };
}
