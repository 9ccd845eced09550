import { PermissionDeniedError } from './errors.ts';
import { permissionsOf, type Permission } from './roles.ts';

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

/** What a tenant's keys act as: their creator (with the creator's roles now) or the system. */
export const KEY_AUTHORITIES = ['creator', 'system'] as const;
export type KeyAuthority = (typeof KEY_AUTHORITIES)[number];

/** The acting user for an account as it is now (its roles decide its permissions). */
export function userActor(user: { id: string; email: string; tenantId: string; roles: readonly string[] }): UserActor {
  return {
    type: 'user',
    id: user.id,
    email: user.email,
    tenantId: user.tenantId,
    roles: user.roles,
    permissions: permissionsOf(user.roles),
  };
}

/** For what only the system may do (creating tenants): no role grants it. */
export function requireSystem(actor: Actor, action: string): void {
  if (actor.type !== 'system') throw new PermissionDeniedError('system', `Only the system (the CLI) may ${action}.`);
}

/** The guard every service method runs itself; the system actor (CLI, jobs) holds every permission. */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (actor.type === 'user' && !actor.permissions.includes(permission)) throw new PermissionDeniedError(permission);
}
