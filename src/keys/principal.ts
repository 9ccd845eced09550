import type { Permission } from '../users/roles.ts';
import { PermissionDeniedError } from '../shared/errors.ts';

export type KeyAuthority = 'creator' | 'system';

export type TenantRef = { id: string; slug: string; name: string };

/** Who a request made with a key acts as, and what it may do (docs/roles.md; whoami in docs/api.md). */
export type Principal = {
  tenant: TenantRef;
  key: { id: string; name: string; hint: string; expires_at: string | null };
  acts_as: { type: 'user'; id: string; email: string } | { type: 'system' };
  permissions: readonly Permission[];
};

/**
 * Everything the key check needs to know about one key, read in one query and cached by digest.
 * `principal` is built once per cache fill; only time-dependent facts are re-evaluated per request.
 */
export type KeyFacts = {
  keyId: string;
  tenantId: string;
  creatorId: string | null;
  enabled: boolean;
  /** Epoch milliseconds, or null for a key that never expires. */
  expiresAtMs: number | null;
  authority: KeyAuthority;
  principal: Principal;
};

/** A key's authority must hold the permission; under creator authority, the creator's roles now. */
export function requireKeyPermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.includes(permission)) {
    throw new PermissionDeniedError(
      permission,
      principal.acts_as.type === 'user'
        ? `This key acts as ${principal.acts_as.email}, who lacks the permission ${permission}.`
        : `This key lacks the permission ${permission}.`,
    );
  }
}
