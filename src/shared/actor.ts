import type { Permission } from '../users/roles.ts';
import { PermissionDeniedError } from './errors.ts';

/** Who performs a change: a signed-in user, or the system (CLI, background jobs). */
export type Actor = UserActor | { type: 'system' };

export type UserActor = {
  type: 'user';
  id: string;
  email: string;
  tenantId: string;
  roles: readonly string[];
  permissions: readonly Permission[];
};

export const SYSTEM_ACTOR: Actor = { type: 'system' };

export function requirePermission(actor: Actor, permission: Permission): void {
  if (actor.type === 'user' && !actor.permissions.includes(permission)) throw new PermissionDeniedError(permission);
}
