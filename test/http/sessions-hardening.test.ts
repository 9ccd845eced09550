import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/use.ts';
import { TEST_PASSWORD, type Session } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';

/** Sessions: fixation, server-side logout, expiry, cookie flags, CSRF, tenant isolation. */
describe('back-office sessions, hardened', () => {
  const h = useHarness();

  const signInWith = (email: string, cookie?: string) =>
    h.app.inject({
      method: 'POST',
      url: '/backoffice/api/session',
      payload: { email, password: TEST_PASSWORD },
      headers: cookie ? { cookie } : {},
    });
  const whoAmI = (cookie: string) =>
    h.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie } });

  it('never adopts a session cookie set before sign-in', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['operations']);
    const planted = 'airkey_session=attacker-chosen-token-value-0123456789abcdef';
    expectProblem(await whoAmI(planted), 401, 'not_authenticated');
    const signedIn = await signInWith(user.email, planted);
    expect(signedIn.statusCode).toBe(200);
    const issued = signedIn.cookies.find((c) => c.name === 'airkey_session')!;
    expect(issued.value).not.toBe('attacker-chosen-token-value-0123456789abcdef');
    expect(issued.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The planted value is still nobody's session.
    expectProblem(await whoAmI(planted), 401, 'not_authenticated');
    expect((await whoAmI(`airkey_session=${issued.value}`)).statusCode).toBe(200);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/backoffice, with an expiry', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['operations']);
    const header = String((await signInWith(user.email)).headers['set-cookie']);
    expect(header).toMatch(/^airkey_session=[A-Za-z0-9_-]+;/);
    expect(header).toMatch(/; HttpOnly(;|$)/);
    expect(header).toMatch(/; SameSite=Lax(;|$)/);
    expect(header).toMatch(/; Path=\/backoffice(;|$)/);
    expect(header).toMatch(/; Expires=/);
  });

  it('ends the session on the server at logout: the old cookie is refused afterwards', async () => {
    const session = await h.signedIn(['operations']);
    expect((await whoAmI(session.cookie)).statusCode).toBe(200);
    const out = await session.request('DELETE', '/backoffice/api/session');
    expect(out.statusCode).toBe(204);
    // A client that kept the cookie (ignoring the clearing Set-Cookie) gets nothing with it.
    expectProblem(await whoAmI(session.cookie), 401, 'not_authenticated');
    expectProblem(await session.request('GET', '/backoffice/api/api-keys'), 401, 'not_authenticated');
    expectProblem(
      await session.request('POST', '/backoffice/api/api-keys', { name: 'after logout' }),
      401,
      'not_authenticated',
    );
  });

  describe('on every mutating route and every route that takes an id', () => {
    let admin: Session;
    let other: Session;
    let keyId: string;
    let otherKeyId: string;
    let otherUserId: string;

    beforeAll(async () => {
      admin = await h.signedIn();
      other = await h.signedIn();
      keyId = (await h.createKey(admin)).api_key.id;
      otherKeyId = (await h.createKey(other, { name: 'theirs' })).api_key.id;
      otherUserId = (await h.user(other.tenantId, ['operations'])).id;
    });

    const mutations = (): Array<[method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown]> => [
      ['POST', '/backoffice/api/api-keys', { name: 'csrf probe' }],
      ['PATCH', `/backoffice/api/api-keys/${keyId}`, { enabled: false }],
      ['POST', `/backoffice/api/api-keys/${keyId}/roll`, { overlap: 'none' }],
      ['DELETE', `/backoffice/api/api-keys/${keyId}`],
      [
        'POST',
        '/backoffice/api/users',
        { email: 'csrf@example.test', name: 'C', password: TEST_PASSWORD, roles: ['crew'] },
      ],
      ['PATCH', `/backoffice/api/users/${admin.userId}`, { name: 'renamed' }],
      ['DELETE', `/backoffice/api/users/${admin.userId}`],
      ['DELETE', '/backoffice/api/session'],
    ];

    it('refuses a mutation without the CSRF token with 403 csrf_rejected', async () => {
      for (const [method, url, body] of mutations()) {
        const response = await h.app.inject({
          method,
          url,
          headers: { cookie: admin.cookie },
          ...(body === undefined ? {} : { payload: body as object }),
        });
        expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 403 });
        expectProblem(response, 403, 'csrf_rejected');
      }
    });

    it('refuses a mutation from a foreign Origin, even with the right token, with 403 csrf_rejected', async () => {
      for (const [method, url, body] of mutations()) {
        const response = await admin.request(method, url, body, { origin: 'https://evil.example' });
        expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 403 });
        expectProblem(response, 403, 'csrf_rejected');
      }
      // Nothing happened: the key still has its name, the session still works.
      const keys = (await admin.request('GET', '/backoffice/api/api-keys')).json<{
        data: Array<{ id: string; name: string }>;
      }>();
      expect(keys.data.find((k) => k.id === keyId)).toMatchObject({ name: 'Test key', status: 'enabled' });
    });

    it("answers 404 for another tenant's key and user ids on every back-office route that takes one", async () => {
      const routes: Array<[method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown]> = [
        ['PATCH', `/backoffice/api/api-keys/${otherKeyId}`, { enabled: false }],
        ['POST', `/backoffice/api/api-keys/${otherKeyId}/roll`, { overlap: 'none' }],
        ['GET', `/backoffice/api/api-keys/${otherKeyId}/usage`],
        ['DELETE', `/backoffice/api/api-keys/${otherKeyId}`],
        ['PATCH', `/backoffice/api/users/${otherUserId}`, { name: 'stolen' }],
        ['DELETE', `/backoffice/api/users/${otherUserId}`],
      ];
      for (const [method, url, body] of routes) {
        const response = await admin.request(method, url, body);
        expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 404 });
        expectProblem(response, 404, 'not_found');
      }
      // Untouched in their tenant.
      const theirs = (await other.request('GET', '/backoffice/api/api-keys')).json<{
        data: Array<{ id: string; name: string; status: string }>;
      }>();
      expect(theirs.data.find((k) => k.id === otherKeyId)).toMatchObject({ name: 'theirs', status: 'enabled' });
      expect(
        (await other.request('GET', '/backoffice/api/users'))
          .json<{ data: Array<{ id: string }> }>()
          .data.map((u) => u.id),
      ).toContain(otherUserId);
    });
  });
});
