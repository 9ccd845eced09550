import { describe, expect, it } from 'vitest';
import { json } from '../../support/use.ts';
import type { SignedIn } from '../../../src/sessions/session-schemas.ts';
import { h, useFlights } from './flights-fixture.ts';

describe('public API: whoami and the OpenAPI document', () => {
  useFlights();

  it('tells a key who it is with whoami', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await h.createKey(admin, { name: 'whoami key', expires_at: '2027-01-01' });
    const tenant = json<SignedIn>(await admin.request('GET', '/backoffice/api/session')).user.tenant;
    const response = await h.api(secret, '/api/v1/whoami', 'bearer');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name },
      key: { id: api_key.id, name: 'whoami key', hint: api_key.hint, expires_at: '2027-01-01' },
      acts_as: { type: 'user', id: admin.userId, email: admin.email },
      permissions: ['flights:read'],
      limits: { rate_limit: null, quota: null },
    });
  });

  it('returns the hint and a name beyond Latin-1 intact, as JSON escapes in the text', async () => {
    const admin = await h.signedIn();
    const name = 'Ops ✈ 東京 🛫';
    const { secret } = await h.createKey(admin, { name });
    const response = await h.api(secret, '/api/v1/whoami', 'bearer');
    expect(response.statusCode).toBe(200);
    expect(response.json<{ key: unknown }>().key).toMatchObject({ name, hint: `ask_…${secret.slice(-4)}` });
    // Latin-1 text: V8 keeps it one byte per character, so Node writes it without re-encoding.
    expect(response.body).toContain('"ask_\\u2026');
    expect(response.body).toContain('Ops \\u2708 \\u6771\\u4eac \\ud83d\\udeeb');
  });

  it('publishes an OpenAPI 3.1 document of /api/v1 alone, without a key', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    expect(document.openapi).toMatch(/^3\.1\./);
    const paths = Object.keys(document.paths).sort();
    expect(paths).toEqual(['/api/v1/flights', '/api/v1/flights/{id}', '/api/v1/leaked-keys', '/api/v1/whoami']);
    expect(Object.keys(document.paths['/api/v1/flights']!)).toEqual(['get']);
    const parameters = (document.paths['/api/v1/flights']!.get as { parameters: Array<{ name: string; in: string }> })
      .parameters;
    expect(parameters.map((p) => p.name).sort()).toEqual([
      'cursor',
      'destination',
      'flight_number',
      'from',
      'limit',
      'origin',
      'status',
      'to',
    ]);
    expect(Object.keys(document.components.securitySchemes).length).toBeGreaterThan(0);
  });
});
