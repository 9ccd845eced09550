import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import { logRowsOf, rowsOf } from '../../support/harness.ts';
import { entriesOf, listening, mcpOver } from '../../support/request-log-kit.ts';
import { useHarness } from '../../support/use.ts';

/** Every way a request with a key of a tenant ends is one entry of its log, over real HTTP (docs/request-log.md). */
describe('request log outcomes', () => {
  const h = useHarness({ now: '2026-11-22T12:00:30Z', app: { plugins: [mcpRoutes] } });
  // The clock moves a minute after each request, so newest-first is the order they were sent in: an
  // entry's instant is its start (the clock minus the real duration), and a first /mcp call that loads
  // the MCP SDK on a busy machine can take over a second.
  const get = async (base: string, path: string, key: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      headers: { 'x-api-key': key, 'user-agent': 'probe/1.0', ...headers },
    });
    h.clock.advance(60_000);
    return response.status;
  };
  const mcp = async (base: string, key: string, method: string, params: Record<string, unknown> = {}) => {
    const response = await mcpOver(base, key, method, params);
    h.clock.advance(60_000);
    return response;
  };

  it('records ok, not_found and invalid_request on /api/v1 with the route, address and user agent', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin, { name: 'reader' });
    expect(await get(base, '/api/v1/whoami', secret)).toBe(200);
    expect(await get(base, `/api/v1/flights/${randomUUID()}`, secret)).toBe(404);
    expect(await get(base, '/api/v1/flights?limit=0', secret)).toBe(400);

    const entries = await entriesOf(h, admin, key.id);
    expect(entries.map((e) => [e.route, e.status, e.outcome])).toEqual([
      ['/api/v1/flights', 400, 'invalid_request'],
      ['/api/v1/flights/{id}', 404, 'not_found'],
      ['/api/v1/whoami', 200, 'ok'],
    ]);
    expect(entries[0]).toMatchObject({
      credential: 'key',
      key: { id: key.id, name: 'reader', hint: key.hint },
      method: 'GET',
      path: '/api/v1/flights',
      address: '127.0.0.1',
      user_agent: 'probe/1.0',
      trace_id: null,
      mcp: null,
    });
    expect(entries[0]!.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('records a disabled key as rejected and an address outside the allowlist as ip_refused', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const disabled = await h.createKey(admin, { name: 'off' });
    await admin.request('PATCH', `/backoffice/api/api-keys/${disabled.api_key.id}`, { enabled: false });
    const fenced = await h.createKey(admin, { name: 'fenced', allowed_ips: ['203.0.113.0/24'] });
    expect(await get(base, '/api/v1/whoami', disabled.secret)).toBe(401);
    expect(await get(base, '/api/v1/whoami', fenced.secret)).toBe(403);

    expect((await entriesOf(h, admin, disabled.api_key.id)).map((e) => [e.status, e.outcome])).toEqual([
      [401, 'rejected'],
    ]);
    expect((await entriesOf(h, admin, fenced.api_key.id)).map((e) => [e.status, e.outcome, e.address])).toEqual([
      [403, 'ip_refused', '127.0.0.1'],
    ]);
  });

  it('records rate_limited and quota_exceeded refusals', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const create = async (body: Record<string, unknown>) =>
      (await admin.request('POST', '/backoffice/api/api-keys', { name: 'limited', ...body })).json<{
        api_key: { id: string };
        secret: string;
      }>();
    const rated = await create({ rate_limit: { requests: 1, window: '1h' } });
    const metered = await create({ quota: { requests: 1, period: 'total' } });
    for (const key of [rated, metered]) {
      expect(await get(base, '/api/v1/whoami', key.secret)).toBe(200);
      expect(await get(base, '/api/v1/whoami', key.secret)).toBe(429);
    }
    expect((await entriesOf(h, admin, rated.api_key.id)).map((e) => e.outcome)).toEqual(['rate_limited', 'ok']);
    expect((await entriesOf(h, admin, metered.api_key.id)).map((e) => e.outcome)).toEqual(['quota_exceeded', 'ok']);
  });

  it('records permission_denied for a key whose creator lost the permission, on /api/v1 and /mcp', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const creator = await h.signIn((await h.user(admin.tenantId, ['system_administrator'])).email);
    const { api_key: key, secret } = await h.createKey(creator, { name: 'demoted' });
    await admin.request('PATCH', `/backoffice/api/users/${creator.userId}`, { roles: ['crew'] });
    expect(await get(base, '/api/v1/flights', secret)).toBe(403);
    expect((await mcp(base, secret, 'tools/call', { name: 'list_flights', arguments: {} })).status).toBe(200);

    const entries = await entriesOf(h, admin, key.id);
    expect(entries.map((e) => [e.route, e.status, e.outcome, e.mcp])).toEqual([
      ['/mcp', 200, 'permission_denied', { method: 'tools/call', tool: 'list_flights' }],
      ['/api/v1/flights', 403, 'permission_denied', null],
    ]);
  });

  it('records a 5xx answer to an accepted key as error, with its status, key, route and duration', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin, { name: 'unlucky' });
    const flight = randomUUID();
    // The flights table goes missing under the running app (as a half-applied migration or a
    // partial restore leaves it): the key check still accepts the key, the flight read fails for real.
    await rowsOf(h, sql`alter table flights rename to flights_away`);
    try {
      expect(await get(base, `/api/v1/flights/${flight}?fields=all`, secret)).toBe(500);
    } finally {
      await rowsOf(h, sql`alter table flights_away rename to flights`);
    }
    expect(await get(base, `/api/v1/flights/${flight}`, secret)).toBe(404);

    const entries = await entriesOf(h, admin, key.id);
    expect(entries.map((e) => [e.status, e.outcome])).toEqual([
      [404, 'not_found'],
      [500, 'error'],
    ]);
    expect(entries[1]).toMatchObject({
      key: { id: key.id, name: 'unlucky', hint: key.hint },
      method: 'GET',
      path: `/api/v1/flights/${flight}`,
      route: '/api/v1/flights/{id}',
      user_agent: 'probe/1.0',
      mcp: null,
    });
    expect(entries[1]!.duration_ms).toBeGreaterThanOrEqual(0);
    const { rows } = await logRowsOf<{ row: string }>(
      h,
      sql`select row_to_json(r)::text as row from request_log_entries r where key_id = ${key.id}`,
    );
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.row).join('\n')).not.toMatch(new RegExp(`${secret.slice(4, 40)}|fields=`));
  });

  it('records /mcp calls with their JSON-RPC method and tool, and a refused /mcp request', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin, { name: 'agent' });
    expect((await mcp(base, secret, 'tools/list')).status).toBe(200);
    expect((await mcp(base, secret, 'tools/call', { name: 'whoami', arguments: {} })).status).toBe(200);
    await admin.request('PATCH', `/backoffice/api/api-keys/${key.id}`, { enabled: false });
    expect((await mcp(base, secret, 'tools/list')).status).toBe(401);

    const entries = await entriesOf(h, admin, key.id);
    expect(entries.map((e) => [e.method, e.route, e.status, e.outcome, e.mcp])).toEqual([
      ['POST', '/mcp', 401, 'rejected', null],
      ['POST', '/mcp', 200, 'ok', { method: 'tools/call', tool: 'whoami' }],
      ['POST', '/mcp', 200, 'ok', { method: 'tools/list', tool: null }],
    ]);
  });

  it('records a NUL in an MCP method or tool name as U+FFFD, and the entries after it are written too', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin, { name: 'nul' });
    // PostgreSQL text cannot hold a NUL: kept as sent, it would fail its batch on every retry.
    await mcp(base, secret, 'tools/\u0000list');
    await mcp(base, secret, 'tools/call', { name: 'who\u0000ami', arguments: {} });
    expect((await mcp(base, secret, 'tools/list')).status).toBe(200);

    const entries = await entriesOf(h, admin, key.id);
    expect(entries.map((e) => e.mcp)).toEqual([
      { method: 'tools/list', tool: null },
      { method: 'tools/call', tool: 'who\uFFFDami' },
      { method: 'tools/\uFFFDlist', tool: null },
    ]);
    expect(h.services.requestLog.writer!.pending).toBe(0);
  });

  it('keeps no key, query string or guess anywhere in the table', async () => {
    const base = await listening(h);
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin);
    const guess = `ask_${'x'.repeat(64)}`;
    expect(await get(base, `/api/v1/flights?api_key=${secret}&origin=LHR`, '')).toBe(200);
    expect(await get(base, '/api/v1/whoami', guess)).toBe(401);
    expect(await get(base, '/api/v1/whoami', secret, { authorization: `Bearer ${secret}`, 'user-agent': secret })).toBe(
      200,
    );

    const entries = await entriesOf(h, admin, key.id);
    expect(entries.map((e) => e.path)).toEqual(['/api/v1/whoami', '/api/v1/flights']);
    const { rows } = await logRowsOf<{ row: string }>(
      h,
      sql`select row_to_json(r)::text as row from request_log_entries r`,
    );
    const everything = rows.map((r) => r.row).join('\n');
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(secret.slice(4, 40));
    expect(everything).not.toContain(guess);
    expect(everything).not.toContain('api_key=');
    expect(everything).not.toContain('origin=LHR');
  });
});
