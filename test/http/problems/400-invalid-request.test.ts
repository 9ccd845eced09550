import { describe, expect, it } from 'vitest';
import type { KeyList } from '../../../src/keys/key-schemas.ts';
import { anyString, json, useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { expectProblem } from '../../support/problems.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START });

  describe('400 invalid_request', () => {
    it('lists each malformed body field in errors', async () => {
      const admin = await h.signedIn();
      const empty = expectProblem(
        await admin.request('POST', '/backoffice/api/api-keys', { name: '   ' }),
        400,
        'invalid_request',
      );
      expect(empty.errors).toEqual([{ path: 'name', message: anyString() }]);
      const today = expectProblem(
        await admin.request('POST', '/backoffice/api/api-keys', { name: 'k', expires_at: '2026-11-22' }),
        400,
        'invalid_request',
      );
      expect(today.errors).toEqual([{ path: 'expires_at', message: anyString() }]);
      const impossible = expectProblem(
        await admin.request('POST', '/backoffice/api/api-keys', { name: 'k', expires_at: '2026-02-30' }),
        400,
        'invalid_request',
      );
      expect(impossible.errors?.map((e) => e.path)).toEqual(['expires_at']);
      const unknown = expectProblem(
        await admin.request('POST', '/backoffice/api/api-keys', { name: 'k', scopes: ['all'] }),
        400,
        'invalid_request',
      );
      expect(unknown.errors?.map((e) => e.path)).toEqual(['scopes']);
      const wrongType = expectProblem(
        await admin.request('PATCH', `/backoffice/api/api-keys/${crypto.randomUUID()}`, { enabled: 'yes' }),
        400,
        'invalid_request',
      );
      expect(wrongType.errors?.map((e) => e.path)).toEqual(['enabled']);
      expect(json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data).toEqual([]);
    });

    it('takes an empty body sent as application/json as no body: a DELETE succeeds, a POST lists what is missing', async () => {
      const admin = await h.signedIn();
      const { api_key } = await h.createKey(admin);
      const headers = { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' };
      expect(
        (await h.app.inject({ method: 'DELETE', url: `/backoffice/api/api-keys/${api_key.id}`, headers })).statusCode,
      ).toBe(204);
      const post = expectProblem(
        await h.app.inject({ method: 'POST', url: '/backoffice/api/api-keys', headers }),
        400,
        'invalid_request',
      );
      expect(post.errors?.length).toBeGreaterThan(0);
      const poisoned = await h.app.inject({
        method: 'POST',
        url: '/backoffice/api/api-keys',
        headers,
        payload: '{"name":"k","__proto__":{"admin":true}}',
      });
      const named = expectProblem(poisoned, 400, 'invalid_request');
      expect(named.detail).toMatch(/"__proto__" is not allowed/);
      expect(named.detail).not.toMatch(/not valid JSON/);
      expect(named.errors).toEqual([{ path: '__proto__', message: named.detail }]);
      const nested = await h.app.inject({
        method: 'POST',
        url: '/backoffice/api/api-keys',
        headers,
        payload: '{"name":"k","quota":{"constructor":{"prototype":{"admin":true}}}}',
      });
      const [property] = expectProblem(nested, 400, 'invalid_request').errors ?? [];
      expect(property?.path).toBe('quota.constructor');
      expect(property?.message).toMatch(/"constructor" is not allowed/);
      expect(json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data).toEqual([]);
    });

    it('gives one error, with its limit as a person writes it, for a quota or rate limit far too large', async () => {
      const admin = await h.signedIn();
      for (const rule of [
        { quota: { requests: 1e20, period: 'day' } },
        { rate_limit: { requests: 1e20, window: '1m' } },
      ]) {
        const body = expectProblem(
          await admin.request('POST', '/backoffice/api/api-keys', { name: 'k', ...rule }),
          400,
          'invalid_request',
        );
        const path = `${Object.keys(rule)[0]}.requests`;
        expect(body.errors).toEqual([{ path, message: 'At most 1,000,000,000.' }]);
      }
    });

    it('answers a body that is not JSON with invalid_request', async () => {
      const admin = await h.signedIn();
      const response = await h.app.inject({
        method: 'POST',
        url: '/backoffice/api/api-keys',
        headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expect(expectProblem(response, 400, 'invalid_request').errors?.length).toBeGreaterThan(0);
    });

    it('lists every malformed query parameter of the flights API', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      const body = expectProblem(
        await h.api(secret, '/api/v1/flights?limit=0&origin=LONDON&status=lost&from=yesterday'),
        400,
        'invalid_request',
      );
      expect(body.errors?.map((e) => e.path).sort()).toEqual(['from', 'limit', 'origin', 'status']);
    });

    it('refuses to change expires_at after creation, naming the field, and leaves the key as it was', async () => {
      const admin = await h.signedIn();
      const { api_key } = await h.createKey(admin, { expires_at: '2027-01-01' });
      const url = `/backoffice/api/api-keys/${api_key.id}`;
      for (const change of [
        { expires_at: '2028-01-01' },
        { expires_at: null },
        { enabled: false, expires_at: '2028-01-01' },
      ]) {
        const body = expectProblem(await admin.request('PATCH', url, change), 400, 'invalid_request');
        expect(JSON.stringify(body.errors ?? body.detail)).toMatch(/expires_at/);
      }
      const listed = json<{ data: Array<{ id: string; expires_at: string; status: string }> }>(
        await admin.request('GET', '/backoffice/api/api-keys'),
      );
      expect(listed.data.find((k) => k.id === api_key.id)).toMatchObject({
        expires_at: '2027-01-01',
        status: 'enabled',
      });
    });
  });
});
