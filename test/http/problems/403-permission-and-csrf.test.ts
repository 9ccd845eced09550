import { describe, expect, it } from 'vitest';
import type { KeyList } from '../../../src/keys/key-schemas.ts';
import { json, useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { expectProblem } from '../../support/problems.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START });

  describe('403 permission_denied and csrf_rejected', () => {
    it('refuses a role without the permission, and a key whose creator lacks it', async () => {
      const crew = await h.signedIn(['crew']);
      expectProblem(await crew.request('GET', '/backoffice/api/api-keys'), 403, 'permission_denied');
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      await h.services.accounts.users.update({ type: 'system' }, admin.tenantId, admin.userId, { roles: ['crew'] });
      expectProblem(await h.api(secret, '/api/v1/flights'), 403, 'permission_denied');
    });

    it('refuses a mutation without the CSRF token, with a wrong one, or from another origin', async () => {
      const admin = await h.signedIn();
      const { api_key } = await h.createKey(admin);
      const url = `/backoffice/api/api-keys/${api_key.id}`;
      const attempts = [
        h.app.inject({ method: 'PATCH', url, headers: { cookie: admin.cookie }, payload: { enabled: false } }),
        admin.request('PATCH', url, { enabled: false }, { 'x-csrf-token': 'wrong' }),
        admin.request('PATCH', url, { enabled: false }, { 'x-csrf-token': `${admin.csrf}x` }),
        admin.request('PATCH', url, { enabled: false }, { origin: 'https://evil.example' }),
        admin.request('PATCH', url, { enabled: false }, { 'sec-fetch-site': 'cross-site' }),
        h.app.inject({ method: 'DELETE', url, headers: { cookie: admin.cookie } }),
        h.app.inject({
          method: 'POST',
          url: '/backoffice/api/api-keys',
          headers: { cookie: admin.cookie },
          payload: { name: 'csrf' },
        }),
      ];
      for (const response of await Promise.all(attempts)) expectProblem(response, 403, 'csrf_rejected');
      const listed = json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data;
      expect(listed).toEqual([expect.objectContaining({ id: api_key.id, enabled: true })]);
      // The same origin passes the check.
      expect(
        (await admin.request('PATCH', url, { enabled: false }, { host: 'airkey.test', origin: 'http://airkey.test' }))
          .statusCode,
      ).toBe(200);
    });

    it('refuses a sign-in posted from another origin (login CSRF)', async () => {
      const tenant = await h.tenant();
      const user = await h.user(tenant.id, ['system_administrator']);
      const response = await h.signInAttempt(user.email, 'a-long-test-password', undefined, {
        origin: 'https://evil.example',
      });
      expectProblem(response, 403, 'csrf_rejected');
      expect(response.cookies).toEqual([]);
    });
  });
});
