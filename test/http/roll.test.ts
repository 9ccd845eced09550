import { describe, expect, it } from 'vitest';
import type { KeyList, RolledKey } from '../../src/keys/key-schemas.ts';
import type { Principal } from '../../src/shared/principal.ts';
import { json, useHarness } from '../support/use.ts';
import { apiFrom, expectProblem } from '../support/problems.ts';

const START = '2026-11-22T12:00:00Z';

/** `POST /backoffice/api/api-keys/{id}/roll` (docs/api.md). */
describe('rolling a key over HTTP', () => {
  const h = useHarness({ now: START, rewindClock: true });

  it('answers 201 with the new key, its secret and the retiring key, never to be cached', async () => {
    const admin = await h.signedIn();
    const old = await h.createKey(admin, { name: 'rolled', expires_at: '2027-02-01' });
    const response = await admin.request('POST', `/backoffice/api/api-keys/${old.api_key.id}/roll`, { overlap: '24h' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toContain('no-store');
    const body = json<RolledKey>(response);
    expect(Object.keys(body).sort()).toEqual(['api_key', 'previous', 'secret']);
    expect(body.api_key).toMatchObject({
      name: 'rolled',
      expires_at: '2027-02-01',
      status: 'enabled',
      retires_at: null,
    });
    expect(body.previous).toMatchObject({
      id: old.api_key.id,
      retires_at: '2026-11-23T12:00:00.000Z',
      status: 'enabled',
    });
    expect(json<Principal>(await apiFrom(h, '10.3.0.1', body.secret, '/api/v1/whoami')).key.id).toBe(body.api_key.id);
    expect((await apiFrom(h, '10.3.0.1', old.secret, '/api/v1/whoami')).statusCode).toBe(200);
    h.clock.set('2026-11-23T12:00:00.000Z');
    expectProblem(await apiFrom(h, '10.3.0.1', old.secret, '/api/v1/whoami'), 401, 'api_key_invalid');
  });

  it('answers previous: null for overlap none, and the old key is refused on the next request', async () => {
    const admin = await h.signedIn();
    const old = await h.createKey(admin);
    expect((await apiFrom(h, '10.3.0.2', old.secret, '/api/v1/whoami')).statusCode).toBe(200);
    const response = await admin.request('POST', `/backoffice/api/api-keys/${old.api_key.id}/roll`, {
      overlap: 'none',
    });
    expect(response.statusCode).toBe(201);
    expect(json<RolledKey>(response).previous).toBeNull();
    expectProblem(await apiFrom(h, '10.3.0.2', old.secret, '/api/v1/whoami'), 401, 'api_key_invalid');
  });

  it.each([
    ['an unknown overlap', { overlap: '2h' }],
    ['no overlap', {}],
    ['an extra field', { overlap: '1h', name: 'x' }],
  ])('answers 400 invalid_request for %s', async (_what, payload) => {
    const admin = await h.signedIn();
    const { api_key } = await h.createKey(admin);
    expectProblem(
      await admin.request('POST', `/backoffice/api/api-keys/${api_key.id}/roll`, payload),
      400,
      'invalid_request',
    );
  });

  it('answers 409 api_key_expired for an expired key', async () => {
    const admin = await h.signedIn();
    const { api_key } = await h.createKey(admin, { expires_at: '2026-11-23' });
    h.clock.set('2026-11-23T00:00:00Z');
    const later = await h.signIn(admin.email); // the first session has timed out by then
    expectProblem(
      await later.request('POST', `/backoffice/api/api-keys/${api_key.id}/roll`, { overlap: '1h' }),
      409,
      'api_key_expired',
    );
  });

  it("answers 404 for another tenant's key or a malformed id, and 403 to an administrator", async () => {
    const admin = await h.signedIn();
    const stranger = await h.signedIn();
    const { api_key } = await h.createKey(admin);
    expectProblem(
      await stranger.request('POST', `/backoffice/api/api-keys/${api_key.id}/roll`, { overlap: 'none' }),
      404,
      'not_found',
    );
    expectProblem(
      await admin.request('POST', '/backoffice/api/api-keys/not-a-uuid/roll', { overlap: 'none' }),
      404,
      'not_found',
    );
    const administrator = await h.signIn((await h.user(admin.tenantId, ['administrator'])).email);
    expectProblem(
      await administrator.request('POST', `/backoffice/api/api-keys/${api_key.id}/roll`, { overlap: 'none' }),
      403,
      'permission_denied',
    );
    expect(json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data).toHaveLength(1);
  });

  it('answers 403 csrf_rejected without the CSRF token', async () => {
    const admin = await h.signedIn();
    const { api_key } = await h.createKey(admin);
    const response = await h.app.inject({
      method: 'POST',
      url: `/backoffice/api/api-keys/${api_key.id}/roll`,
      payload: { overlap: 'none' },
      headers: { cookie: admin.cookie },
    });
    expectProblem(response, 403, 'csrf_rejected');
  });
});
