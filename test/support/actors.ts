import { SYSTEM_ACTOR, userActor, type UserActor } from '../../src/shared/actor.ts';
import type { Role } from '../../src/shared/roles.ts';
import type { Harness } from './harness.ts';
import { rowsOf } from './rows.ts';

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
  return userActor(row!);
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
