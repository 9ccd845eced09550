import { SYSTEM_ACTOR, userActor, type SignInState, type UserActor } from '../../src/shared/actor.ts';
import type { Role } from '../../src/shared/roles.ts';
import type { Harness } from './harness.ts';
import { rowsOf } from './rows.ts';

/**
 * A user who has just signed in: sensitive actions pass (no re-authentication due) and nothing is
 * limited to enrolling a second factor. Tests of those rules build their own state.
 */
export const JUST_SIGNED_IN: SignInState = {
  sessionId: null,
  reauthenticatedUntilMs: Number.POSITIVE_INFINITY,
  enrolmentOnly: false,
};

/** The acting user for a user row, as a service sees someone who has just signed in. */
export function signedInAs(user: Parameters<typeof userActor>[0]): UserActor {
  return userActor(user, JUST_SIGNED_IN);
}

/** A new tenant and a user in it, as the acting user the services take. */
export async function tenantWithUser(
  h: Harness,
  roles: Role[] = ['system_administrator'],
  authority: 'creator' | 'system' = 'creator',
) {
  const tenant = await h.tenant(authority);
  const actor = await actorIn(h, tenant.id, roles);
  return { tenant, actor };
}

export async function actorIn(h: Harness, tenantId: string, roles: Role[]): Promise<UserActor> {
  const user = await h.user(tenantId, roles);
  const row = await rowsOf(h.services).users.findById(user.id);
  return signedInAs(row!);
}

export async function auditActions(
  h: Harness,
  tenantId: string,
): Promise<
  Array<{
    action: string;
    target: { id: string | null; name: string | null };
    actor: { type: string; id: string | null };
    detail: Record<string, unknown>;
  }>
> {
  return (await h.services.audit.list(SYSTEM_ACTOR, tenantId, 200)).data.reverse();
}
