import { KeyRepository } from '../../src/keys/key-repository.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { checksumOf } from '../../src/keys/checksum.ts';
import { apiFrom, expectProblem, unknownKey } from '../support/problems.ts';

const START = '2026-11-22T12:00:00Z';

/** Every row of SPEC §6, each through the real HTTP app. */
describe('problem responses (SPEC §6)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ now: START, config: { maxKeysPerTenant: 2 } });
  });
  afterAll(async () => h.close());
  afterEach(() => h.clock.set(START));

  describe('400 invalid_request', () => {
    it('lists each malformed body field in errors', async () => {
      const admin = await h.signedIn();
      const empty = expectProblem(await admin.request('POST', '/backoffice/api/api-keys', { name: '   ' }), 400, 'invalid_request');
      expect(empty.errors).toEqual([{ path: 'name', message: expect.any(String) }]);
      const today = expectProblem(await admin.request('POST', '/backoffice/api/api-keys', { name: 'k', expires_at: '2026-11-22' }), 400, 'invalid_request');
      expect(today.errors).toEqual([{ path: 'expires_at', message: expect.any(String) }]);
      const impossible = expectProblem(await admin.request('POST', '/backoffice/api/api-keys', { name: 'k', expires_at: '2026-02-30' }), 400, 'invalid_request');
      expect(impossible.errors?.map((e) => e.path)).toEqual(['expires_at']);
      const unknown = expectProblem(await admin.request('POST', '/backoffice/api/api-keys', { name: 'k', scopes: ['all'] }), 400, 'invalid_request');
      expect(unknown.errors?.map((e) => e.path)).toEqual(['scopes']);
      const wrongType = expectProblem(await admin.request('PATCH', `/backoffice/api/api-keys/${crypto.randomUUID()}`, { enabled: 'yes' }), 400, 'invalid_request');
      expect(wrongType.errors?.map((e) => e.path)).toEqual(['enabled']);
      expect((await admin.request('GET', '/backoffice/api/api-keys')).json().data).toEqual([]);
    });

    it('takes an empty body sent as application/json as no body: a DELETE succeeds, a POST lists what is missing', async () => {
      const admin = await h.signedIn();
      const { api_key } = await h.createKey(admin);
      const headers = { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' };
      expect((await h.app.inject({ method: 'DELETE', url: `/backoffice/api/api-keys/${api_key.id}`, headers })).statusCode).toBe(204);
      const post = expectProblem(await h.app.inject({ method: 'POST', url: '/backoffice/api/api-keys', headers }), 400, 'invalid_request');
      expect(post.errors?.length).toBeGreaterThan(0);
      const poisoned = await h.app.inject({ method: 'POST', url: '/backoffice/api/api-keys', headers, payload: '{"name":"k","__proto__":{"admin":true}}' });
      expectProblem(poisoned, 400, 'invalid_request');
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
      const body = expectProblem(await h.api(secret, '/api/v1/flights?limit=0&origin=LONDON&status=lost&from=yesterday'), 400, 'invalid_request');
      expect(body.errors?.map((e) => e.path).sort()).toEqual(['from', 'limit', 'origin', 'status']);
    });
  });

  describe('400 api_key_ambiguous', () => {
    it('refuses two different keys in one request, in any combination of places', async () => {
      const admin = await h.signedIn();
      const one = await h.createKey(admin, { name: 'one' });
      const two = await h.createKey(admin, { name: 'two' });
      const combos: Array<{ headers: Record<string, string>; query: string }> = [
        { headers: { 'x-api-key': one.secret, authorization: `Bearer ${two.secret}` }, query: '' },
        { headers: { 'x-api-key': one.secret }, query: `?api_key=${two.secret}` },
        { headers: { authorization: `Bearer ${one.secret}` }, query: `?api_key=${two.secret}` },
        { headers: {}, query: `?api_key=${one.secret}&api_key=${two.secret}` },
        { headers: { 'x-api-key': one.secret }, query: '?api_key=not-even-a-key' },
      ];
      for (const { headers, query } of combos) {
        const response = await h.app.inject({ method: 'GET', url: `/api/v1/whoami${query}`, headers, remoteAddress: '10.0.0.2' });
        expectProblem(response, 400, 'api_key_ambiguous');
      }
    });

    it('accepts the same key sent in several places', async () => {
      const admin = await h.signedIn();
      const { secret, api_key } = await h.createKey(admin);
      const response = await h.app.inject({
        method: 'GET',
        url: `/api/v1/whoami?api_key=${secret}`,
        headers: { 'x-api-key': secret, authorization: `Bearer ${secret}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().key.id).toBe(api_key.id);
    });
  });

  describe('401 api_key_missing', () => {
    it('answers a request without a key with WWW-Authenticate', async () => {
      for (const url of ['/api/v1/whoami', '/api/v1/flights', `/api/v1/flights/${crypto.randomUUID()}`]) {
        const response = await apiFrom(h, '10.0.1.1', undefined, url);
        expectProblem(response, 401, 'api_key_missing');
        expect(response.headers['www-authenticate']).toMatch(/X-API-Key|Bearer/);
      }
      const basic = await h.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: { authorization: 'Basic dXNlcjpwYXNz' }, remoteAddress: '10.0.1.1' });
      expectProblem(basic, 401, 'api_key_missing');
    });
  });

  describe('401 api_key_invalid', () => {
    it('rejects malformed, unknown and deleted keys alike, with WWW-Authenticate', async () => {
      const admin = await h.signedIn();
      const { secret, api_key } = await h.createKey(admin);
      expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
      expect((await admin.request('DELETE', `/backoffice/api/api-keys/${api_key.id}`)).statusCode).toBe(204);
      const bad = ['ask_short', 'not-a-key', `${secret}x`, secret.slice(0, -1), `ASK_${secret.slice(4)}`, unknownKey(), secret];
      for (const key of bad) {
        const response = await apiFrom(h, '10.0.2.1', key, '/api/v1/whoami');
        const body = expectProblem(response, 401, 'api_key_invalid');
        expect(response.headers['www-authenticate']).toBeDefined();
        expect(body.detail).not.toContain(key);
      }
    });
  });

  describe('401 api_key_disabled and api_key_expired', () => {
    it('rejects a disabled key', async () => {
      const admin = await h.signedIn();
      const { secret, api_key } = await h.createKey(admin);
      await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false });
      expectProblem(await apiFrom(h, '10.0.3.1', secret, '/api/v1/whoami'), 401, 'api_key_disabled');
    });

    it('rejects a key from 00:00:00 UTC of its expiry date, enabled or not', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin, { expires_at: '2026-11-23' });
      const disabled = await h.createKey(admin, { name: 'disabled', expires_at: '2026-11-23' });
      await admin.request('PATCH', `/backoffice/api/api-keys/${disabled.api_key.id}`, { enabled: false });
      h.clock.set('2026-11-22T23:59:59.999Z');
      expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
      h.clock.set('2026-11-23T00:00:00.000Z');
      expectProblem(await apiFrom(h, '10.0.3.2', secret, '/api/v1/whoami'), 401, 'api_key_expired');
      expectProblem(await apiFrom(h, '10.0.3.2', disabled.secret, '/api/v1/whoami'), 401, 'api_key_expired');
      // The old session has lived its 12 hours by now: sign in again.
      const later = await h.signIn(admin.email);
      const listed = (await later.request('GET', '/backoffice/api/api-keys')).json().data as Array<{ status: string; expires_at_time: string }>;
      expect(listed.map((k) => [k.status, k.expires_at_time])).toEqual([
        ['expired', '2026-11-23T00:00:00.000Z'],
        ['expired', '2026-11-23T00:00:00.000Z'],
      ]);
    });
  });

  describe('401 not_authenticated and invalid_credentials', () => {
    it('refuses the back-office API without a live session', async () => {
      expectProblem(await h.app.inject({ method: 'GET', url: '/backoffice/api/api-keys' }), 401, 'not_authenticated');
      expectProblem(await h.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: 'airkey_session=forged' } }), 401, 'not_authenticated');
      expectProblem(await h.app.inject({ method: 'POST', url: '/backoffice/api/api-keys', payload: { name: 'x' } }), 401, 'not_authenticated');
      const admin = await h.signedIn();
      expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
      expect((await admin.request('DELETE', '/backoffice/api/session')).statusCode).toBe(204);
      expectProblem(await admin.request('GET', '/backoffice/api/api-keys'), 401, 'not_authenticated');
    });

    it('expires a session after its lifetime', async () => {
      const admin = await h.signedIn();
      h.clock.advance(13 * 3_600_000);
      expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    });

    it('answers a wrong password and an unknown e-mail the same way', async () => {
      const admin = await h.signedIn();
      const wrong = await h.app.inject({ method: 'POST', url: '/backoffice/api/session', payload: { email: admin.email, password: 'not the password' }, remoteAddress: '10.0.4.1' });
      const unknown = await h.app.inject({ method: 'POST', url: '/backoffice/api/session', payload: { email: 'nobody@example.test', password: 'not the password' }, remoteAddress: '10.0.4.1' });
      const a = expectProblem(wrong, 401, 'invalid_credentials');
      const b = expectProblem(unknown, 401, 'invalid_credentials');
      expect(a).toEqual(b);
      expect(wrong.cookies).toEqual([]);
    });
  });

  describe('403 permission_denied and csrf_rejected', () => {
    it('refuses a role without the permission, and a key whose creator lacks it', async () => {
      const crew = await h.signedIn(['crew']);
      expectProblem(await crew.request('GET', '/backoffice/api/api-keys'), 403, 'permission_denied');
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      await h.services.users.update({ type: 'system' }, admin.tenantId, admin.userId, { roles: ['crew'] });
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
        h.app.inject({ method: 'POST', url: '/backoffice/api/api-keys', headers: { cookie: admin.cookie }, payload: { name: 'csrf' } }),
      ];
      for (const response of await Promise.all(attempts)) expectProblem(response, 403, 'csrf_rejected');
      const listed = (await admin.request('GET', '/backoffice/api/api-keys')).json().data;
      expect(listed).toEqual([expect.objectContaining({ id: api_key.id, enabled: true })]);
      // The same origin passes the check.
      expect((await admin.request('PATCH', url, { enabled: false }, { host: 'airkey.test', origin: 'http://airkey.test' })).statusCode).toBe(200);
    });

    it('refuses a sign-in posted from another origin (login CSRF)', async () => {
      const tenant = await h.tenant();
      const user = await h.user(tenant.id, ['system_administrator']);
      const response = await h.app.inject({
        method: 'POST',
        url: '/backoffice/api/session',
        headers: { origin: 'https://evil.example' },
        payload: { email: user.email, password: 'a-long-test-password' },
      });
      expectProblem(response, 403, 'csrf_rejected');
      expect(response.cookies).toEqual([]);
    });
  });

  describe('404 not_found', () => {
    it('answers unknown routes, key ids and flights', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      expectProblem(await admin.request('PATCH', `/backoffice/api/api-keys/${crypto.randomUUID()}`, { enabled: false }), 404, 'not_found');
      expectProblem(await admin.request('DELETE', '/backoffice/api/api-keys/not-a-uuid'), 404, 'not_found');
      expectProblem(await h.api(secret, `/api/v1/flights/${crypto.randomUUID()}`), 404, 'not_found');
      expectProblem(await h.app.inject({ method: 'GET', url: '/no/such/route' }), 404, 'not_found');
    });
  });

  describe('409 conflicts', () => {
    it('refuses toggling an expired key with api_key_expired', async () => {
      const admin = await h.signedIn();
      const { api_key } = await h.createKey(admin, { expires_at: '2026-11-23' });
      h.clock.set('2026-11-23T00:00:00Z');
      const later = await h.signIn(admin.email);
      expectProblem(await later.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false }), 409, 'api_key_expired');
      expectProblem(await later.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: true }), 409, 'api_key_expired');
    });

    it('refuses enabling a key of a deleted creator with creator_deleted', async () => {
      const admin = await h.signedIn();
      const creator = await h.user(admin.tenantId, ['system_administrator']);
      const creatorSession = await h.signIn(creator.email);
      const { api_key } = await h.createKey(creatorSession);
      expect((await admin.request('DELETE', `/backoffice/api/users/${creator.id}`)).statusCode).toBe(204);
      expectProblem(await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: true }), 409, 'creator_deleted');
    });

    it('refuses the key beyond MAX_KEYS_PER_TENANT with api_key_limit_reached', async () => {
      const admin = await h.signedIn();
      for (let i = 0; i < h.config.maxKeysPerTenant; i++) await h.createKey(admin, { name: `k${i}` });
      expectProblem(await admin.request('POST', '/backoffice/api/api-keys', { name: 'one more' }), 409, 'api_key_limit_reached');
    });
  });

  describe('429 too_many_requests', () => {
    it('blocks a client after repeated bad keys, with Retry-After, while its valid cached key keeps working', async () => {
      const client = '10.9.9.9';
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      expect((await apiFrom(h, client, secret, '/api/v1/whoami')).statusCode).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await apiFrom(h, client, unknownKey(String.fromCharCode(65 + (i % 26))), '/api/v1/whoami')).statusCode);
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.at(-1)).toBe(429);
      const blocked = await apiFrom(h, client, `ask_${'q'.repeat(64)}`, '/api/v1/whoami');
      expectProblem(blocked, 429, 'too_many_requests');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await apiFrom(h, client, secret, '/api/v1/whoami')).statusCode).toBe(200);
      expect((await apiFrom(h, client, secret, '/api/v1/flights', 'query')).statusCode).toBe(200);
      // Another client is not punished for this one.
      expectProblem(await apiFrom(h, '10.9.9.10', unknownKey(), '/api/v1/whoami'), 401, 'api_key_invalid');
    });

    it('lets a blocked client use a valid key this instance has never seen, yet keeps refusing guesses', async () => {
      const client = '10.9.9.11';
      const admin = await h.signedIn();
      const { secret: fresh } = await h.createKey(admin, { name: 'never used yet' });
      h.services.keyCache.invalidate({ type: 'all' }); // as on an instance that has not seen it
      // Well-formed guesses with a valid checksum: only those can cost a lookup at all.
      const guess = (i: number) => {
        const body = `ask_${String(i).padStart(58, 'g')}`;
        return body + checksumOf(body);
      };
      for (let i = 0; i < 25; i++) await apiFrom(h, client, guess(i), '/api/v1/whoami');
      expectProblem(await apiFrom(h, client, guess(100), '/api/v1/whoami'), 429, 'too_many_requests');
      expect((await apiFrom(h, client, fresh, '/api/v1/whoami')).statusCode).toBe(200);
      // Guesses stay refused; past the lookup budget (60 a minute) without reading the database.
      const lookups = vi.spyOn(KeyRepository.prototype, 'findFactsByDigest');
      const statuses: number[] = [];
      for (let i = 200; i < 280; i++) statuses.push((await apiFrom(h, client, guess(i), '/api/v1/whoami')).statusCode);
      expect(new Set(statuses)).toEqual(new Set([429]));
      expect(lookups.mock.calls.length).toBeGreaterThan(0);
      expect(lookups.mock.calls.length).toBeLessThan(60);
      lookups.mockRestore();
    });
  });
});
