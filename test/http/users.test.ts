import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use.ts';
import { createHarness, TEST_PASSWORD, type Harness } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';

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
    const user = created.json();
    expect(user).toEqual({
      id: expect.any(String),
      email: user.email,
      name: 'New Person',
      roles: ['operations'],
      tenant: { id: admin.tenantId, slug: expect.any(String), name: expect.any(String) },
    });
    expect(JSON.stringify(user)).not.toMatch(/password|argon/i);
    expect(
      (await admin.request('GET', '/backoffice/api/users'))
        .json()
        .data.map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual([admin.email, user.email].sort());
    const updated = await admin.request('PATCH', `/backoffice/api/users/${user.id}`, {
      roles: ['crew'],
      name: 'Renamed',
    });
    expect(updated.json()).toMatchObject({ roles: ['crew'], name: 'Renamed' });
    expect(
      (await admin.request('GET', '/backoffice/api/users')).json().data.find((u: { id: string }) => u.id === user.id),
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
    const peer = (await admin.request('POST', '/backoffice/api/users', newUser(['operations']))).json();
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
    expect((await sysadmin.request('GET', '/backoffice/api/session')).json().user.roles).toEqual([
      'system_administrator',
    ]);

    const granted = await sysadmin.request('PATCH', `/backoffice/api/users/${peer.id}`, {
      roles: ['system_administrator'],
    });
    expect(granted.json().roles).toEqual(['system_administrator']);
    const created = await sysadmin.request('POST', '/backoffice/api/users', newUser(['system_administrator']));
    expect(created.statusCode).toBe(201);
    expect(
      (await sysadmin.request('PATCH', `/backoffice/api/users/${peer.id}`, { roles: ['operations'] })).json().roles,
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
    expect((await h.services.userRepository.findById(sysadmin.userId))?.roles).toEqual(['administrator']);
    expect((await h.services.userRepository.findById(second.id))?.roles).toEqual(['system_administrator']);
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
    expect((await h.services.userRepository.findById(admin.userId))?.id).toBe(admin.userId);
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

describe('sign-in throttling', () => {
  const h = useHarness();

  const signIn = (email: string, password: string, client: string) => h.signInAttempt(email, password, client);

  it('answers 429 with Retry-After after repeated wrong passwords, even for the right one, for that client only', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['system_administrator']);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await signIn(user.email, `wrong password ${i}`, '10.7.0.1')).statusCode);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    const blocked = await signIn(user.email, TEST_PASSWORD, '10.7.0.1');
    expectProblem(blocked, 429, 'too_many_requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.cookies).toEqual([]);
    expect((await signIn(user.email, TEST_PASSWORD, '10.7.0.2')).statusCode).toBe(200);
    const failed = (await h.services.audit.list(SYSTEM_ACTOR, tenant.id, 50)).data.filter(
      (e) => e.action === 'user.sign_in_failed',
    );
    expect(failed.length).toBeGreaterThan(0);
    // The account is the target; whoever typed the password is not known to be its owner.
    expect(failed[0]).toMatchObject({
      actor: { type: 'user', id: null, email: user.email },
      target: { id: user.id },
      detail: { client: '10.7.0.1' },
    });
  });

  it('blocks a client spraying many accounts after 100 failures in five minutes, whatever the accounts', async () => {
    for (let i = 0; i < 100; i++)
      expect((await signIn(`nobody-${i}@example.test`, 'wrong password', '10.7.1.1')).statusCode).toBe(401);
    const blocked = await signIn('nobody-100@example.test', 'wrong password', '10.7.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'too_many_requests' });
  }, 120_000);
});
