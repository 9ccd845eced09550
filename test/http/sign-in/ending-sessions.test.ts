import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { enrolTotp } from '../../support/second-factors.ts';
import { useHarness } from '../../support/use.ts';

type Listed = { sessions: Array<{ id: string; current: boolean; address: string; user_agent: string }> };

describe('ending sessions', () => {
  const h = useHarness();

  it('lists a person’s sessions with address and browser, and ends one or all the others', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['system_administrator']);
    const laptop = await h.signIn(user.email);
    const phone = await h.signIn(user.email);
    const tablet = await h.signIn(user.email);
    const listed = (await laptop.request('GET', '/backoffice/api/me/security')).json<Listed>().sessions;
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    expect(listed[0]).toMatchObject({ address: '127.0.0.1', user_agent: 'lightMyRequest' });

    const phoneId = (await phone.request('GET', '/backoffice/api/me/security'))
      .json<Listed>()
      .sessions.find((s) => s.current)!.id;
    expect((await laptop.request('DELETE', `/backoffice/api/me/sessions/${phoneId}`)).statusCode).toBe(204);
    expectProblem(await phone.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expect((await tablet.request('GET', '/backoffice/api/session')).statusCode).toBe(200);

    expect((await laptop.request('DELETE', '/backoffice/api/me/sessions')).statusCode).toBe(204);
    expectProblem(await tablet.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expect((await laptop.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });

  it('answers 404 for a session that is not the person’s own', async () => {
    const alice = await h.signedIn();
    const bob = await h.signedIn();
    const bobsId = (await bob.request('GET', '/backoffice/api/me/security')).json<Listed>().sessions[0]!.id;
    expectProblem(await alice.request('DELETE', `/backoffice/api/me/sessions/${bobsId}`), 404, 'not_found');
    expect((await bob.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });

  it('ends the other sessions when the person changes their password, keeping this one', async () => {
    const admin = await h.signedIn();
    const other = await h.signIn(admin.email);
    const changed = await admin.request('PUT', '/backoffice/api/me/password', {
      current_password: TEST_PASSWORD,
      new_password: 'a brand new long passphrase',
    });
    expect(changed.statusCode).toBe(204);
    expectProblem(await other.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
    expectProblem(await h.signInAttempt(admin.email, TEST_PASSWORD), 401, 'invalid_credentials');
    expect((await h.signInAttempt(admin.email, 'a brand new long passphrase')).statusCode).toBe(200);
  });

  it('refuses a password change with a wrong current password or a new one that breaks the rule', async () => {
    const admin = await h.signedIn();
    const wrong = await admin.request('PUT', '/backoffice/api/me/password', {
      current_password: 'not my password',
      new_password: 'a brand new long passphrase',
    });
    expectProblem(wrong, 401, 'invalid_credentials');
    const weak = await admin.request('PUT', '/backoffice/api/me/password', {
      current_password: TEST_PASSWORD,
      new_password: 'short',
    });
    expect(expectProblem(weak, 400, 'invalid_request').errors).toEqual([
      { path: 'new_password', message: 'The password must be 12–128 characters.' },
    ]);
  });

  it('ends every session of a user whose roles or password an administrator changes', async () => {
    const admin = await h.signedIn();
    const user = await h.user(admin.tenantId, ['operations']);
    const theirs = await h.signIn(user.email);
    await admin.request('PATCH', `/backoffice/api/users/${user.id}`, { roles: ['operations', 'administrator'] });
    expectProblem(await theirs.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    const again = await h.signIn(user.email);
    await admin.request('PATCH', `/backoffice/api/users/${user.id}`, { password: 'reset by the administrator' });
    expectProblem(await again.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    // A name change is not a change of who may do what: the session stays.
    const third = await h.signIn(user.email, 'reset by the administrator');
    await admin.request('PATCH', `/backoffice/api/users/${user.id}`, { name: 'Renamed' });
    expect((await third.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });

  it('ends the other sessions when a second factor is added', async () => {
    const admin = await h.signedIn();
    const other = await h.signIn(admin.email);
    await enrolTotp(h, admin);
    expectProblem(await other.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });

  it('lets users:manage end a colleague’s sessions and a System Administrator end the tenant’s', async () => {
    const admin = await h.signedIn();
    const manager = await h.signIn((await h.user(admin.tenantId, ['administrator'])).email);
    const crewUser = await h.user(admin.tenantId, ['crew']);
    const crew = await h.signIn(crewUser.email);
    expect((await manager.request('DELETE', `/backoffice/api/users/${crewUser.id}/sessions`)).statusCode).toBe(204);
    expectProblem(await crew.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expectProblem(await manager.request('DELETE', '/backoffice/api/sessions'), 403, 'permission_denied');

    const crewAgain = await h.signIn(crewUser.email);
    expect((await admin.request('DELETE', '/backoffice/api/sessions')).statusCode).toBe(204);
    expectProblem(await crewAgain.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expectProblem(await manager.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
    // Another tenant's sessions are untouched.
    const elsewhere = await h.signedIn();
    expect((await elsewhere.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });

  it('refuses crew who try to end others’ sessions, and hides another tenant’s users', async () => {
    const admin = await h.signedIn();
    const crew = await h.signIn((await h.user(admin.tenantId, ['crew'])).email);
    expectProblem(
      await crew.request('DELETE', `/backoffice/api/users/${admin.userId}/sessions`),
      403,
      'permission_denied',
    );
    const stranger = await h.signedIn();
    expectProblem(await stranger.request('DELETE', `/backoffice/api/users/${admin.userId}/sessions`), 404, 'not_found');
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });
});
