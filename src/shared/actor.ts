import type { Clock } from './clock.ts';
import {
  NotFoundError,
  PermissionDeniedError,
  ReauthenticationRequiredError,
  SecondFactorRequiredError,
} from './errors.ts';
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
  /** What the session this user acts through allows (docs/sign-in.md). */
  signIn: SignInState;
};

/**
 * How recently the acting user proved who they are, and whether their session opens only the
 * enrolment of a second factor. Services read it, not routes, so no transport can skip it.
 */
export type SignInState = {
  /** The session acted through: a person's change to their own account ends their other sessions, not this one. */
  sessionId: string | null;
  /** Sensitive actions pass until then (epoch ms): sign-in or re-authentication plus REAUTH_MINUTES. */
  reauthenticatedUntilMs: number;
  /** The tenant requires a second factor this user lacks: nothing but enrolling one is open. */
  enrolmentOnly: boolean;
};

export const SYSTEM_ACTOR: Actor = { type: 'system' };

/** What a tenant's keys act as: their creator (with the creator's roles now) or the system. */
export const KEY_AUTHORITIES = ['creator', 'system'] as const;
export type KeyAuthority = (typeof KEY_AUTHORITIES)[number];

/** The acting user for an account as it is now (its roles decide its permissions). */
export function userActor(
  user: { id: string; email: string; tenantId: string; roles: readonly string[] },
  signIn: SignInState,
): UserActor {
  return {
    type: 'user',
    id: user.id,
    email: user.email,
    tenantId: user.tenantId,
    roles: user.roles,
    permissions: permissionsOf(user.roles),
    signIn,
  };
}

/** For what only the system may do (creating tenants): no role grants it. */
export function requireSystem(actor: Actor, action: string): void {
  if (actor.type !== 'system') throw new PermissionDeniedError('system', `Only the system (the CLI) may ${action}.`);
}

/**
 * The guard every service method runs itself; the system actor (CLI, jobs) holds every permission.
 * An enrolment-only session holds none of them, whatever its roles.
 */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (actor.type !== 'user') return;
  if (actor.signIn.enrolmentOnly) throw new SecondFactorRequiredError();
  if (!actor.permissions.includes(permission)) throw new PermissionDeniedError(permission);
}

/** A user acts only on their own tenant; another tenant's things are as unknown as missing ones (404). */
export function requireOwnTenant(actor: Actor, tenantId: string): void {
  if (actor.type === 'user' && actor.tenantId !== tenantId) throw new NotFoundError('tenant');
}

/**
 * For sensitive actions (creating or rolling keys, changing users, factors, policies, webhook
 * targets): the user must have signed in or re-authenticated within REAUTH_MINUTES. A stolen
 * session cookie alone then cannot mint a key. The system actor (CLI, jobs) is not a session.
 */
export function requireRecentSignIn(actor: Actor, clock: Clock): void {
  if (actor.type === 'user' && clock.nowMs() >= actor.signIn.reauthenticatedUntilMs) {
    throw new ReauthenticationRequiredError();
  }
}
