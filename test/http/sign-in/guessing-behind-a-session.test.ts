import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { passwordFrom, statusCounts } from '../../support/door-kit.ts';
import { expectProblem } from '../../support/problems.ts';
import { useHarness } from '../../support/use.ts';

/**
 * A stolen session guessing the password on the Security page, and calls that make the server
 * work before anyone is known: each counted like the door's own attempts.
 */
describe('guessing behind a session, and work before anyone is known', () => {
  const h = useHarness();

  it('counts a wrong current password on PUT /me/password as a wrong password at the door', async () => {
    const admin = await h.signedIn();
    const change = (current: string) =>
      admin.request('PUT', '/backoffice/api/me/password', {
        current_password: current,
        new_password: 'a new long password',
      });
    for (let i = 0; i < 5; i++) expectProblem(await change(`wrong ${i}`), 401, 'invalid_credentials');
    const right = await change(TEST_PASSWORD);
    expectProblem(right, 429, 'too_many_requests');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // The same count as the door's: this client is refused there too.
    expectProblem(await h.signInAttempt(admin.email, TEST_PASSWORD), 429, 'too_many_requests');
  });

  it('checks at most 5 of 50 wrong current passwords sent at once', async () => {
    const admin = await h.signedIn();
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        admin.request('PUT', '/backoffice/api/me/password', {
          current_password: `wrong ${i}`,
          new_password: 'a new long password',
        }),
      ),
    );
    expect(statusCounts(all)).toEqual({ 401: 5, 429: 45 });
  });

  it('checks at most 5 of 50 wrong passwords sent at once to one instance (pglite)', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['crew']);
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) => passwordFrom(h.app, '198.51.100.90', user.email, `wrong ${i}`)),
    );
    expect(statusCounts(all)).toEqual({ 401: 5, 429: 45 });
  });

  it('throttles passkey options per client like failed key checks: 20 a minute, then 429', async () => {
    const options = (client: string) =>
      h.app.inject({ method: 'POST', url: '/backoffice/api/session/passkey/options', remoteAddress: client });
    for (let i = 0; i < 20; i++) expect((await options('192.0.2.77')).statusCode).toBe(200);
    const refused = await options('192.0.2.77');
    expectProblem(refused, 429, 'too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await options('192.0.2.78')).statusCode).toBe(200);
  });

  it('throttles SSO start per client the same way: each call would store a flow', async () => {
    const start = (client: string) =>
      h.app.inject({ method: 'GET', url: '/backoffice/sso/no-such-tenant/start', remoteAddress: client });
    for (let i = 0; i < 20; i++) expect((await start('192.0.2.87')).statusCode).toBe(302);
    expectProblem(await start('192.0.2.87'), 429, 'too_many_requests');
    expect((await start('192.0.2.88')).statusCode).toBe(302);
  });
});
