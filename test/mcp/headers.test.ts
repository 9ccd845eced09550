import { describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../src/mcp/mcp-routes.ts';
import { entriesOf, listening } from '../support/request-log-kit.ts';
import { useHarness } from '../support/use.ts';

const REVISION = '2026-07-28';

/** A 2026-07-28 request body: every request carries its `_meta` envelope, there is no initialize. */
function modern(method: string, params: Record<string, unknown> = {}, revision = REVISION) {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': revision,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta } };
}

/** The headers a 2026-07-28 client sends with `method` (and `name` for tools/call). */
function headersFor(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': REVISION,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/** A JSON-RPC answer, as much of it as these tests read. */
type Answer = {
  id?: number;
  result?: { tools?: unknown[]; ttlMs?: number } & Record<string, unknown>;
  error?: { code: number; data?: unknown };
} & Record<string, unknown>;

/** The 2026-07-28 header rules of docs/mcp.md over raw HTTP, as a host's HTTP client meets them. */
describe('MCP 2026-07-28 over raw HTTP', () => {
  const h = useHarness({ app: { plugins: [mcpRoutes] } });

  async function send(key: string, headers: Record<string, string>, body?: unknown, method = 'POST') {
    const response = await fetch(`${await listening(h)}/mcp`, {
      method,
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer };
  }
  async function key() {
    const admin = await h.signedIn();
    return { admin, ...(await h.createKey(admin, { name: 'raw' })) };
  }

  it('answers server/discover without a session, with resultType and public cache hints', async () => {
    const { secret } = await key();
    const discover = await send(secret, headersFor('server/discover'), modern('server/discover'));
    expect(discover.status).toBe(200);
    expect(discover.headers.get('mcp-session-id')).toBeNull();
    expect(discover.body.result).toMatchObject({
      supportedVersions: [REVISION],
      capabilities: { tools: {} },
      resultType: 'complete',
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });

    const list = await send(secret, headersFor('tools/list'), modern('tools/list'));
    expect(list.body.result).toMatchObject({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public' });
    expect(list.body.result?.tools).toHaveLength(3);

    const call = await send(secret, headersFor('tools/call', 'whoami'), modern('tools/call', { name: 'whoami' }));
    expect(call.status).toBe(200);
    expect(call.body.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { permissions: ['flights:read'] },
    });
    expect(call.body.result?.ttlMs).toBeUndefined();
  });

  it('refuses a request without Mcp-Method with 400 and JSON-RPC error -32020', async () => {
    const { secret } = await key();
    const withoutMethod = headersFor('tools/list');
    delete withoutMethod['mcp-method'];
    const refused = await send(secret, withoutMethod, modern('tools/list'));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32020 } });
  });

  it('refuses headers that disagree with the body (method, tool name) with 400 and -32020', async () => {
    const { secret } = await key();
    const method = await send(secret, headersFor('tools/call', 'whoami'), modern('tools/list'));
    expect(method.status).toBe(400);
    expect(method.body.error?.code).toBe(-32020);
    const name = await send(secret, headersFor('tools/call', 'get_flight'), modern('tools/call', { name: 'whoami' }));
    expect(name.status).toBe(400);
    expect(name.body.error?.code).toBe(-32020);
    expect(name.body.result).toBeUndefined();
  });

  it('refuses an unsupported revision with 400 and -32022 naming the supported ones', async () => {
    const { secret } = await key();
    const headers = { ...headersFor('tools/list'), 'mcp-protocol-version': '2099-01-01' };
    const refused = await send(secret, headers, modern('tools/list', {}, '2099-01-01'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32022,
      data: { supported: [REVISION], requested: '2099-01-01' },
    });
  });

  it('answers an unknown method with 404 and -32601', async () => {
    const { secret } = await key();
    const unknown = await send(secret, headersFor('flights/cancel'), modern('flights/cancel'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('answers GET and DELETE with 405 and Allow: POST', async () => {
    const { secret } = await key();
    for (const method of ['GET', 'DELETE']) {
      const refused = await send(secret, headersFor('tools/list'), undefined, method);
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get('allow'), method).toBe('POST');
      expect(refused.body).toMatchObject({ status: 405, code: 'method_not_allowed' });
    }
  });

  it('logs the method and tool from Mcp-Method and Mcp-Name when the key was refused before the body', async () => {
    const { admin, api_key, secret } = await key();
    await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false });
    const refused = await send(
      secret,
      headersFor('tools/call', 'list_flights'),
      modern('tools/call', { name: 'list_flights' }),
    );
    expect(refused.status).toBe(401);
    const [entry] = await entriesOf(h, admin, api_key.id);
    expect(entry).toMatchObject({
      status: 401,
      outcome: 'rejected',
      mcp: { method: 'tools/call', tool: 'list_flights' },
    });
  });

  it('answers a request carrying a header value beyond Latin-1 or with a NUL, which only an in-process request can', async () => {
    const { secret } = await key();
    // Off the wire Node reads header bytes as Latin-1; inject passes the string as given.
    const response = await h.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        'x-api-key': secret,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headersFor('tools/call', 'whoami'),
        'x-note': ['  Ħ', 'ok'],
        // A NUL, which no wire request can carry either (found by the headers fuzz, seed 311370795).
        'x-other': ['0', '\u0000'],
      },
      payload: modern('tools/call', { name: 'whoami' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<Answer>().result).toMatchObject({ structuredContent: { permissions: ['flights:read'] } });
  });
});
