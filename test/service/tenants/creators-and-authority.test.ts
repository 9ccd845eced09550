import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { ConflictError } from '../../../src/shared/errors.ts';
import { ENGINES } from '../../support/databases.ts';
import { actorIn, auditActions, tenantWithUser } from '../../support/actors.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';

describe.each(ENGINES)('creators, roles and authority (%s)', (engine) => {
  const h = useHarness({ engine });

  const check = (secret: string) => h.services.keys.check.check(secret, `svc-${engine}`);

  it('acts as the creator with their current roles: a role change narrows the key on the next check', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const { secret } = await h.services.keys.lifecycle.create(actor, { name: 'narrowing' });
    const before = await check(secret);
    expect(before).toMatchObject({
      ok: true,
      principal: { acts_as: { type: 'user', id: actor.id, email: actor.email }, permissions: ['flights:read'] },
    });
    await h.services.accounts.users.update({ type: 'system' }, tenant.id, actor.id, { roles: ['crew'] });
    expect(await check(secret)).toMatchObject({ ok: true, principal: { permissions: [] } });
    await h.services.accounts.users.update({ type: 'system' }, tenant.id, actor.id, { roles: ['operations'] });
    expect(await check(secret)).toMatchObject({ ok: true, principal: { permissions: ['flights:read'] } });
    const changed = (await auditActions(h, tenant.id)).filter((e) => e.action === 'user.roles_changed');
    expect(changed.map((e) => e.detail)).toEqual([
      { from: ['system_administrator'], to: ['crew'] },
      { from: ['crew'], to: ['operations'] },
    ]);
  });

  it('disables the keys of a deleted creator with creator_deleted under creator authority, and refuses to enable them', async () => {
    const { tenant, actor: admin } = await tenantWithUser(h);
    const creator = await actorIn(h, tenant.id, ['system_administrator']);
    const mine = await h.services.keys.lifecycle.create(creator, { name: 'creator key' });
    const theirs = await h.services.keys.lifecycle.create(admin, { name: 'admin key' });
    expect((await check(mine.secret)).ok).toBe(true);

    await h.services.accounts.users.delete(admin, tenant.id, creator.id);

    expect(await check(mine.secret)).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect((await check(theirs.secret)).ok).toBe(true);
    const listed = (await h.services.keys.lifecycle.list(admin)).data.find((k) => k.id === mine.api_key.id);
    expect(listed).toMatchObject({
      enabled: false,
      status: 'disabled',
      disabled_reason: 'creator_deleted',
      created_by: null,
    });
    const conflict = await h.services.keys.lifecycle.setEnabled(admin, mine.api_key.id, true).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ConflictError).code).toBe('creator_deleted');
    const deleted = (await auditActions(h, tenant.id)).find((e) => e.action === 'user.deleted');
    expect(deleted).toMatchObject({
      actor: { type: 'user', id: admin.id },
      target: { id: creator.id },
      detail: { disabled_keys: [mine.api_key.id] },
    });
  });

  it('lets a creator_deleted key be enabled under system authority, and disables it again when authority returns to creator', async () => {
    const { tenant, actor: admin } = await tenantWithUser(h);
    const creator = await actorIn(h, tenant.id, ['system_administrator']);
    const { api_key, secret } = await h.services.keys.lifecycle.create(creator, { name: 'orphan' });
    await h.services.accounts.users.delete(admin, tenant.id, creator.id);

    await h.services.accounts.tenants.setAuthority(SYSTEM_ACTOR, tenant.slug, 'system');
    expect(await check(secret)).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect(await h.services.keys.lifecycle.setEnabled(admin, api_key.id, true)).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    expect(await check(secret)).toMatchObject({
      ok: true,
      principal: { acts_as: { type: 'system' }, permissions: ['flights:read'] },
    });

    await h.services.accounts.tenants.setAuthority(SYSTEM_ACTOR, tenant.slug, 'creator');
    expect(await check(secret)).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect((await h.services.keys.lifecycle.list(admin)).data[0]).toMatchObject({
      enabled: false,
      disabled_reason: 'creator_deleted',
    });
    const changes = (await auditActions(h, tenant.id))
      .filter((e) => e.action === 'tenant.authority_changed')
      .map((e) => e.detail);
    // Switching back to creator re-disables the orphaned key, and the trail says which.
    expect(changes).toEqual([
      { from: 'creator', to: 'system', disabled_keys: [] },
      { from: 'system', to: 'creator', disabled_keys: [api_key.id] },
    ]);
  });

  it('keeps keys working under system authority whatever becomes of their creator', async () => {
    const { tenant, actor: admin } = await tenantWithUser(h, ['system_administrator'], 'system');
    const creator = await actorIn(h, tenant.id, ['system_administrator']);
    const { api_key, secret } = await h.services.keys.lifecycle.create(creator, { name: 'system key' });
    expect(await check(secret)).toMatchObject({
      ok: true,
      principal: { acts_as: { type: 'system' }, permissions: ['flights:read'] },
    });
    await h.services.accounts.users.update(admin, tenant.id, creator.id, { roles: ['crew'] });
    expect(await check(secret)).toMatchObject({ ok: true, principal: { permissions: ['flights:read'] } });
    await h.services.accounts.users.delete(admin, tenant.id, creator.id);
    expect(await check(secret)).toMatchObject({ ok: true, principal: { acts_as: { type: 'system' } } });
    expect((await h.services.keys.lifecycle.list(admin)).data[0]).toMatchObject({
      id: api_key.id,
      enabled: true,
      disabled_reason: null,
      created_by: null,
    });
    expect((await auditActions(h, tenant.id)).find((e) => e.action === 'user.deleted')?.detail).toEqual({
      disabled_keys: [],
    });
  });

  it('switches what a cached key acts as on the next check when the authority changes', async () => {
    const { tenant } = await tenantWithUser(h, ['operations']);
    const admin = await actorIn(h, tenant.id, ['system_administrator']);
    const { secret } = await h.services.keys.lifecycle.create(admin, { name: 'switch' });
    expect(await check(secret)).toMatchObject({ ok: true, principal: { acts_as: { type: 'user', id: admin.id } } });
    await h.services.accounts.tenants.setAuthority(SYSTEM_ACTOR, tenant.slug, 'system');
    expect(await check(secret)).toMatchObject({ ok: true, principal: { acts_as: { type: 'system' } } });
    await h.services.accounts.tenants.setAuthority(SYSTEM_ACTOR, tenant.slug, 'creator');
    expect(await check(secret)).toMatchObject({ ok: true, principal: { acts_as: { type: 'user', id: admin.id } } });
  });

  it('lets only the system (the CLI) change the authority: no user, not even an administrator', async () => {
    const { tenant } = await tenantWithUser(h);
    const admin = await actorIn(h, tenant.id, ['system_administrator']);
    await expect(h.services.accounts.tenants.setAuthority(admin, tenant.slug, 'system')).rejects.toMatchObject({
      code: 'permission_denied',
    });
    expect((await h.services.accounts.tenants.requireBySlug(tenant.slug)).keyAuthority).toBe('creator');
    expect((await auditActions(h, tenant.id)).some((e) => e.action === 'tenant.authority_changed')).toBe(false);
    await expect(h.services.accounts.tenants.setAuthority(SYSTEM_ACTOR, tenant.slug, 'system')).resolves.toMatchObject({
      authority: 'system',
    });
  });

  it('sees a disable and a delete on the very next check, although the key was cached', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'cached' });
    expect((await check(secret)).ok).toBe(true);
    expect((await check(secret)).ok).toBe(true);
    await h.services.keys.lifecycle.setEnabled(actor, api_key.id, false);
    expect(await check(secret)).toEqual({ ok: false, reason: 'api_key_disabled' });
    await h.services.keys.lifecycle.setEnabled(actor, api_key.id, true);
    expect((await check(secret)).ok).toBe(true);
    await h.services.keys.lifecycle.delete(actor, api_key.id);
    expect(await check(secret)).toEqual({ ok: false, reason: 'api_key_invalid' });
  });
});
