import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/shared/errors.ts';
import { actorIn, tenantWithUser } from '../../support/actors.ts';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { useHarness } from '../../support/use.ts';

/** UserService checks that its actor belongs to the tenant it names, whatever adapter calls it. */
describe('the user service and tenants', () => {
  const h = useHarness();

  const newUser = (email: string) => ({ email, name: 'New person', password: TEST_PASSWORD, roles: ['crew'] });

  it('creates a user in the actor’s own tenant, and no other', async () => {
    const own = await tenantWithUser(h);
    const other = await tenantWithUser(h);
    await expect(
      h.services.accounts.users.create(own.actor, other.tenant.id, newUser('x1@example.test')),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.services.accounts.users.list(other.actor)).toHaveLength(1);
    const created = await h.services.accounts.users.create(own.actor, own.tenant.id, newUser('x2@example.test'));
    expect(created.tenant.id).toBe(own.tenant.id);
  });

  it('updates a user of the actor’s own tenant, and no other', async () => {
    const own = await tenantWithUser(h);
    const other = await tenantWithUser(h);
    const theirs = await actorIn(h, other.tenant.id, ['crew']);
    await expect(
      h.services.accounts.users.update(own.actor, other.tenant.id, theirs.id, { name: 'Hijacked' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const listed = await h.services.accounts.users.list(other.actor);
    expect(listed.find((user) => user.id === theirs.id)?.name).toBe('Test User');
    const mine = await actorIn(h, own.tenant.id, ['crew']);
    expect(
      await h.services.accounts.users.update(own.actor, own.tenant.id, mine.id, { name: 'Renamed' }),
    ).toMatchObject({
      name: 'Renamed',
    });
  });

  it('deletes a user of the actor’s own tenant, and no other', async () => {
    const own = await tenantWithUser(h);
    const other = await tenantWithUser(h);
    const theirs = await actorIn(h, other.tenant.id, ['crew']);
    await expect(h.services.accounts.users.delete(own.actor, other.tenant.id, theirs.id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await h.services.accounts.users.list(other.actor)).map((user) => user.id)).toContain(theirs.id);
    const mine = await actorIn(h, own.tenant.id, ['crew']);
    await h.services.accounts.users.delete(own.actor, own.tenant.id, mine.id);
    expect((await h.services.accounts.users.list(own.actor)).map((user) => user.id)).not.toContain(mine.id);
  });
});
