import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/shared/principal.ts';
import { json, useHarness } from '../support/use.ts';

const API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};

describe('security headers and serialisation per scope', () => {
  const h = useHarness();

  it('answers the API, its refusals and unknown routes with the small JSON API set and no page headers', async () => {
    const admin = await h.signedIn();
    const { secret } = await h.createKey(admin, { name: 'Headers' });
    const responses = [
      await h.api(secret, '/api/v1/whoami', 'header'),
      await h.app.inject({ method: 'GET', url: '/api/v1/whoami', headers: { 'x-api-key': 'nope' } }),
      await h.app.inject({ method: 'GET', url: '/no/such/route' }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 401, 404]);
    for (const response of responses) {
      expect(response.headers).toMatchObject(API_HEADERS);
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(response.headers['x-frame-options']).toBeUndefined();
      expect(response.headers['server-timing']).toBeUndefined();
    }
  });

  it("gives the back office helmet's full set with the page CSP, and keeps its session cookie working", async () => {
    const admin = await h.signedIn();
    const response = await admin.request('GET', '/backoffice/api/api-keys');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['strict-transport-security']).toContain('max-age=');
    expect(response.headers['cache-control']).toBe('no-store');
    // The server's own time for the request, as the browser's network panel shows it.
    expect(response.headers['server-timing']).toMatch(/^app;dur=\d+\.\d$/);
  });

  it('answers whoami with exactly the fields of its schema', async () => {
    const admin = await h.signedIn();
    const { secret, api_key } = await h.createKey(admin, { name: 'Fields' });
    const body = json<Principal>(await h.api(secret, '/api/v1/whoami', 'header'));
    expect(Object.keys(body).sort()).toEqual(['acts_as', 'key', 'limits', 'permissions', 'tenant']);
    expect(Object.keys(body.key).sort()).toEqual(['expires_at', 'hint', 'id', 'name']);
    expect(body.key.id).toBe(api_key.id);
  });
});
