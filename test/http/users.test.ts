import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { describe, expect, it } from 'vitest';
import type { SignedIn } from '../../src/sessions/session-schemas.ts';
import type { UserView } from '../../src/users/user-schemas.ts';
import { anyString, json, useHarness } from '../support/use.ts';
import { expectProblem } from '../support/problems.ts';
import { rowsOf } from '../support/rows.ts';

describe('users endpoints', () => {
  const h = useHarness();

  const newUser = (roles: string[], email = `${crypto.randomUUID().slice(0, 8)}@example.test`) => ({
    email,
    name: 'New Person',
    password: 'long-enough-password',
    roles,
  });

  it('lets an administrator list, create, update and delete users of the tenant', async () => {
    const admin = await h.signedIn(['administrator']);
    const created = await admin.request('POST', '/backoffice/api/users', newUser(['operations']));
    expect(created.statusCode).toBe(201);
    const user = json<UserView>(created);
    expect(user).toEqual({
      id: anyString(),
      email: user.email,
      name: 'New Person',
      roles: ['operations'],
      tenant: { id: admin.tenantId, slug: anyString(), name: anyString() },
    });
    expect(JSON.stringify(user)).not.toMatch(/password|argon/i);
    expect(
      json<{ data: UserView[] }>(await admin.request('GET', '/backoffice/api/users'))
        .data.map((u) => u.email)
        .sort(),
    ).toEqual([admin.email, user.email].sort());
    const updated = await admin.request('PATCH', `/backoffice/api/users/${user.id}`, {
      roles: ['crew'],
      name: 'Renamed',
    });
    expect(json(updated)).toMatchObject({ roles: ['crew'], name: 'Renamed' });
    expect(
      json<{ data: UserView[] }>(await admin.request('GET', '/backoffice/api/users')).data.find(
        (u) => u.id === user.id,
      ),
    ).toMatchObject({ roles: ['crew'], name: 'Renamed' });
    const session = await h.signIn(user.email, 'long-enough-password');
    expect((await admin.request('DELETE', `/backoffice/api/users/${user.id}`)).statusCode).toBe(204);
    expectProblem(await session.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    const actions = (await h.services.audit.list(SYSTEM_ACTOR, admin.tenantId, 50)).data.map((e) => e.action).reverse();
    expect(actions).toEqual([
      'user.created',
      'user.signed_in',
      'user.created',
      'user.roles_changed',
      'user.signed_in',
      'user.deleted',
    ]);
  });

  it('lets only a System Administrator grant or remove system_administrator', async () => {
    const sysadmin = await h.signedIn(['system_administrator']);
    const admin = await h.signIn((await h.user(sysadmin.tenantId, ['administrator'])).email);
    expectProblem(
      await admin.request('POST', '/backoffice/api/users', newUser(['system_administrator'])),
      403,
      'permission_denied',
    );
    const peer = json<UserView>(await admin.request('POST', '/backoffice/api/users', newUser(['operations'])));
    expectProblem(
      await admin.request('PATCH', `/backoffice/api/users/${peer.id}`, { roles: ['system_administrator'] }),
      403,
      'permission_denied',
    );
    expectProblem(
      await admin.request('PATCH', `/backoffice/api/users/${admin.userId}`, {
        roles: ['administrator', 'system_administrator'],
      }),
      403,
      'permission_denied',
    );
    expectProblem(
      await admin.request('PATCH', `/backoffice/api/users/${sysadmin.userId}`, { roles: ['crew'] }),
      403,
      'permission_denied',
    );
    expectProblem(await admin.request('DELETE', `/backoffice/api/users/${sysadmin.userId}`), 403, 'permission_denied');
    expect(json<SignedIn>(await sysadmin.request('GET', '/backoffice/api/session')).user.roles).toEqual([
      'system_administrator',
    ]);

    const granted = await sysadmin.request('PATCH', `/backoffice/api/users/${peer.id}`, {
      roles: ['system_administrator'],
    });
    expect(json<UserView>(granted).roles).toEqual(['system_administrator']);
    const created = await sysadmin.request('POST', '/backoffice/api/users', newUser(['system_administrator']));
    expect(created.statusCode).toBe(201);
    expect(
      json<UserView>(await sysadmin.request('PATCH', `/backoffice/api/users/${peer.id}`, { roles: ['operations'] }))
        .roles,
    ).toEqual(['operations']);
  });

  it("refuses an administrator any change to a System Administrator's account, such as a new password", async () => {
    const sysadmin = await h.signedIn(['system_administrator']);
    const admin = await h.signIn((await h.user(sysadmin.tenantId, ['administrator'])).email);
    expectProblem(
      await admin.request('PATCH', `/backoffice/api/users/${sysadmin.userId}`, { password: 'taken-over-1234' }),
      403,
      'permission_denied',
    );
    expectProblem(
      await admin.request('PATCH', `/backoffice/api/users/${sysadmin.userId}`, { name: 'Someone else' }),
      403,
      'permission_denied',
    );
    const attempt = await h.signInAttempt(sysadmin.email, 'taken-over-1234', '10.8.0.1');
    expectProblem(attempt, 401, 'invalid_credentials');
    expect((await sysadmin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });

  it('ends every session of a user whose password someone else changed', async () => {
    const sysadmin = await h.signedIn(['system_administrator']);
    const other = await h.user(sysadmin.tenantId, ['operations']);
    const theirs = await h.signIn(other.email);
    expect(
      (await sysadmin.request('PATCH', `/backoffice/api/users/${other.id}`, { password: 'a-brand-new-password' }))
        .statusCode,
    ).toBe(200);
    expectProblem(await theirs.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expect((await h.signIn(other.email, 'a-brand-new-password')).userId).toBe(other.id);
  });

  it('keeps the last System Administrator of a tenant (409 last_system_administrator)', async () => {
    const sysadmin = await h.signedIn(['system_administrator']);
    expectProblem(
      await sysadmin.request('PATCH', `/backoffice/api/users/${sysadmin.userId}`, { roles: ['administrator'] }),
      409,
      'last_system_administrator',
    );
    const second = await h.user(sysadmin.tenantId, ['system_administrator']);
    expect(
      (await sysadmin.request('PATCH', `/backoffice/api/users/${sysadmin.userId}`, { roles: ['administrator'] }))
        .statusCode,
    ).toBe(200);
    // Read back from the database, not from the values this test sent.
    expect((await rowsOf(h.services).users.findById(sysadmin.userId))?.roles).toEqual(['administrator']);
    expect((await rowsOf(h.services).users.findById(second.id))?.roles).toEqual(['system_administrator']);
  });

  it('refuses to let a user delete themselves (400 invalid_request on id)', async () => {
    const admin = await h.signedIn(['administrator']);
    const body = expectProblem(
      await admin.request('DELETE', `/backoffice/api/users/${admin.userId}`),
      400,
      'invalid_request',
    );
    expect(body.errors).toEqual([{ path: 'id', message: 'You cannot delete your own account.' }]);
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
    expect((await rowsOf(h.services).users.findById(admin.userId))?.id).toBe(admin.userId);
  });

  it('validates new users field by field and refuses a taken e-mail with 409', async () => {
    const admin = await h.signedIn(['administrator']);
    const body = expectProblem(
      await admin.request('POST', '/backoffice/api/users', {
        email: 'not-an-email',
        name: '',
        password: 'short',
        roles: ['pilot'],
      }),
      400,
      'invalid_request',
    );
    expect(body.errors?.map((e) => e.path).sort()).toEqual(['email', 'name', 'password', 'roles']);
    expectProblem(
      await admin.request('POST', '/backoffice/api/users', newUser(['crew'], admin.email.toUpperCase())),
      409,
      'email_taken',
    );
  });

  it('refuses users endpoints to roles without users:manage', async () => {
    for (const role of ['operations', 'crew'] as const) {
      const session = await h.signedIn([role]);
      expectProblem(await session.request('GET', '/backoffice/api/users'), 403, 'permission_denied');
      expectProblem(
        await session.request('PATCH', `/backoffice/api/users/${session.userId}`, { roles: ['administrator'] }),
        403,
        'permission_denied',
      );
    }
  });
});
