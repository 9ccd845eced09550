import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../src/mcp/mcp-routes.ts';
import { generateFlights } from '../../src/flights/flight-seeder.ts';
import { createHarness, type Harness, type Session } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';

/** Contract rows that had no test (issue 11): server-level pieces reachable through `inject`. */
describe('contract rows without a test until now', () => {
  let h: Harness;
  let admin: Session;
  beforeAll(async () => {
    h = await createHarness({ app: { plugins: [mcpRoutes] } });
    admin = await h.signedIn();
  });
  afterAll(async () => h.close());

  /** One stateless MCP JSON-RPC call, as an agent's HTTP client sends it. */
  const mcp = (key: string, method: string, params: Record<string, unknown> = {}) =>
    h.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method, params },
    });

  it('refuses to change expires_at after creation: 400 invalid_request naming the field', async () => {
    const { api_key } = await h.createKey(admin, { expires_at: '2027-01-01' });
    for (const expires_at of ['2028-01-01', null]) {
      const body = expectProblem(
        await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { expires_at }),
        400,
        'invalid_request',
      );
      expect(JSON.stringify(body.errors ?? body.detail)).toMatch(/expires_at/);
    }
    const both = expectProblem(
      await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, {
        enabled: false,
        expires_at: '2028-01-01',
      }),
      400,
      'invalid_request',
    );
    expect(JSON.stringify(both.errors ?? both.detail)).toMatch(/expires_at/);
    const listed = (await admin.request('GET', '/backoffice/api/api-keys')).json<{
      data: Array<{ id: string; expires_at: string; status: string }>;
    }>();
    expect(listed.data.find((k) => k.id === api_key.id)).toMatchObject({ expires_at: '2027-01-01', status: 'enabled' });
  });

  it('redirects a signed-out visit to a back-office page to the sign-in page with ?next=', async () => {
    for (const [page, next] of [
      ['/backoffice/settings/api-keys', '%2Fbackoffice%2Fsettings%2Fapi-keys'],
      ['/backoffice/users', '%2Fbackoffice%2Fusers'],
    ]) {
      const response = await h.app.inject({ method: 'GET', url: page });
      expect({ status: response.statusCode, location: response.headers.location }).toEqual({
        status: 302,
        location: `/backoffice/login?next=${next}`,
      });
    }
    const stale = await h.app.inject({
      method: 'GET',
      url: '/backoffice/settings/api-keys',
      headers: { cookie: 'airkey_session=not-a-session' },
    });
    expect(stale.headers.location).toBe('/backoffice/login?next=%2Fbackoffice%2Fsettings%2Fapi-keys');
  });

  it('serves MCP under system authority: whoami acts as system, list_flights works', async () => {
    const system = await h.signedIn(['system_administrator'], 'system');
    const { secret } = await h.createKey(system, { name: 'system agent' });
    await h.services.flightRepository.insertMany(generateFlights(system.tenantId, 3, h.clock.now(), 7));
    const whoami = await mcp(secret, 'tools/call', { name: 'whoami', arguments: {} });
    expect(whoami.statusCode).toBe(200);
    const who = whoami.json<{
      result: { structuredContent: { acts_as: unknown; tenant: { id: string } }; isError?: boolean };
    }>().result;
    expect(who.isError ?? false).toBe(false);
    expect(who.structuredContent.acts_as).toEqual({ type: 'system' });
    expect(who.structuredContent.tenant.id).toBe(system.tenantId);
    const flights = await mcp(secret, 'tools/call', { name: 'list_flights', arguments: { limit: 10 } });
    expect(flights.statusCode).toBe(200);
    const page = flights.json<{ result: { structuredContent: { data: unknown[] }; isError?: boolean } }>().result;
    expect(page.isError ?? false).toBe(false);
    expect(page.structuredContent.data).toHaveLength(3);
  });

  // Last: it moves the clock past the key's expiry.
  it('refuses an expired key on MCP with 401 api_key_expired problem+json, before any JSON-RPC', async () => {
    const { secret } = await h.createKey(admin, { name: 'expiring agent', expires_at: '2026-11-23' });
    expect((await mcp(secret, 'tools/call', { name: 'whoami', arguments: {} })).statusCode).toBe(200);
    h.clock.set('2026-11-23T00:00:00Z');
    for (const method of ['initialize', 'tools/list', 'tools/call']) {
      const response = await mcp(secret, method, method === 'tools/call' ? { name: 'whoami', arguments: {} } : {});
      expectProblem(response, 401, 'api_key_expired');
      expect(response.body).not.toMatch(/jsonrpc/);
    }
  });
});
