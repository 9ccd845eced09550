import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../support/actors.ts';
import { ENGINES } from '../support/databases.ts';
import {
  ADMIN_EMAIL,
  INITIALIZE,
  post,
  textOf,
  UNKNOWN_KEY,
  useMcpServer,
  type McpTestServer,
} from '../support/mcp-server.ts';

/** A raw POST with chosen Host and Origin headers (fetch would not let a test set Host). */
function postAs(kit: McpTestServer, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      kit.mcpUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(INITIALIZE));
  });
}

describe.each(ENGINES)('MCP authentication with API keys (%s)', (engine) => {
  const kit = useMcpServer(engine);
  beforeAll(async () => kit.seedFlights(kit.demoTenantId, 5));

  const admin = async () => signedInAs(await kit.services.accounts.users.requireByEmail(ADMIN_EMAIL));

  it('refuses to connect without a key: HTTP 401 problem+json api_key_missing before any MCP handling', async () => {
    const client = new Client({ name: 'no-key', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(kit.mcpUrl))).rejects.toMatchObject({ code: 401 });

    const response = await post(kit, {});
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="airkey", resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    expect(await response.json()).toMatchObject({ status: 401, code: 'api_key_missing' });
  });

  it('refuses an unknown key with 401 api_key_invalid and two different keys with 400 api_key_ambiguous', async () => {
    const unknown = await post(kit, { 'x-api-key': UNKNOWN_KEY });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="airkey", error="invalid_token", resource_metadata="[^"]+\/oauth-protected-resource\/mcp"$/,
    );
    expect(await unknown.json()).toMatchObject({ code: 'api_key_invalid' });

    const { secret } = await kit.key();
    const ambiguous = await post(kit, { 'x-api-key': secret, authorization: `Bearer ${UNKNOWN_KEY}` });
    expect(ambiguous.status).toBe(400);
    expect(await ambiguous.json()).toMatchObject({ code: 'api_key_ambiguous' });
  });

  it('checks the key before parsing the body: a keyless malformed request is still 401', async () => {
    const response = await fetch(kit.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'api_key_missing' });
  });

  it('accepts the key as X-API-Key, Bearer or api_key query value, and never logs the query value', async () => {
    const { secret, api_key } = await kit.key();
    for (const via of ['header', 'bearer', 'query'] as const) {
      const client = await kit.connect(secret, via);
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.structuredContent, via).toMatchObject({ key: { id: api_key.id } });
    }
    expect(kit.logs.some((line) => line.includes('"url":"/mcp"'))).toBe(true);
    expect(kit.logs.join('\n')).not.toContain(secret);
  });

  it('refuses a foreign Origin with 403 origin_rejected before the key check, and accepts its own loopback origin', async () => {
    const { secret } = await kit.key();
    // A DNS-rebinding page: Host and Origin agree with each other, on a name that is not the server's.
    const rebinding = await postAs(kit, {
      'x-api-key': secret,
      host: 'evil.example.com',
      origin: 'http://evil.example.com',
    });
    expect(rebinding).toMatchObject({ status: 403, body: { status: 403, code: 'origin_rejected' } });
    const foreign = await post(kit, { 'x-api-key': secret, origin: 'http://evil.example.com' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    // Before the key check: no key at all still gets 403, not 401.
    const keyless = await post(kit, { origin: 'https://attacker.example' });
    expect(keyless.status).toBe(403);
    expect(await keyless.json()).toMatchObject({ code: 'origin_rejected' });

    const own = await post(kit, { 'x-api-key': secret, origin: new URL(kit.server.url).origin });
    expect(own.status).toBe(200);
    const localhost = await postAs(kit, {
      'x-api-key': secret,
      host: `localhost:${kit.mcpUrl.port}`,
      origin: `http://localhost:${kit.mcpUrl.port}`,
    });
    expect(localhost.status).toBe(200);
  });

  it('answers GET and DELETE /mcp with 405 for a valid key and 401 without one', async () => {
    const { secret } = await kit.key();
    for (const method of ['GET', 'DELETE']) {
      const withKey = await fetch(kit.mcpUrl, {
        method,
        headers: { 'x-api-key': secret, accept: 'text/event-stream' },
      });
      expect(withKey.status, method).toBe(405);
      expect(withKey.headers.get('allow')).toBe('POST');
      expect(await withKey.json()).toMatchObject({ code: 'method_not_allowed' });
      const without = await fetch(kit.mcpUrl, { method });
      expect(without.status, method).toBe(401);
    }
  });

  it("gives a tool error, never data, once the creator's roles lose flights:read, and data again when restored", async () => {
    const { secret, creator } = await kit.key();
    const client = await kit.connect(secret);
    const before = await client.callTool({ name: 'list_flights', arguments: { limit: 1 } });
    expect(before.isError).toBeFalsy();
    const flightId = (before.structuredContent as { data: Array<{ id: string }> }).data[0]!.id;

    await kit.services.accounts.users.update(await admin(), kit.demoTenantId, creator.id, { roles: ['crew'] });
    for (const [name, args] of [
      ['list_flights', {}],
      ['get_flight', { id: flightId }],
    ] as const) {
      const refused = await client.callTool({ name, arguments: args });
      expect(refused.isError, name).toBe(true);
      expect(refused.structuredContent, name).toBeUndefined();
      expect(textOf(refused), name).toMatch(/^permission_denied: .*flights:read/);
      expect(textOf(refused), name).not.toContain(flightId);
    }
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    expect(whoami.structuredContent).toMatchObject({ permissions: [] });

    await kit.services.accounts.users.update(await admin(), kit.demoTenantId, creator.id, { roles: ['operations'] });
    const after = await client.callTool({ name: 'get_flight', arguments: { id: flightId } });
    expect(after.isError).toBeFalsy();
  });

  it('refuses a key disabled mid-session on its very next call (401 api_key_disabled), and serves it again once enabled', async () => {
    const { secret, api_key } = await kit.key();
    const client = await kit.connect(secret);
    expect((await client.callTool({ name: 'list_flights', arguments: { limit: 1 } })).isError).toBeFalsy();

    await kit.services.keys.lifecycle.setEnabled(await admin(), api_key.id, false);
    const refused = client.callTool({ name: 'list_flights', arguments: { limit: 1 } });
    await expect(refused).rejects.toMatchObject({ code: 401 });
    await expect(refused).rejects.toThrow(/api_key_disabled/);

    await kit.services.keys.lifecycle.setEnabled(await admin(), api_key.id, true);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
  });

  it('refuses a key deleted mid-session on its very next call (401 api_key_invalid)', async () => {
    const { secret, api_key } = await kit.key();
    const client = await kit.connect(secret);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();

    await kit.services.keys.lifecycle.delete(await admin(), api_key.id);
    const refused = client.callTool({ name: 'whoami', arguments: {} });
    await expect(refused).rejects.toMatchObject({ code: 401 });
    await expect(refused).rejects.toThrow(/api_key_invalid/);
  });

  it('refuses the keys of a deleted creator on their next call (401 api_key_disabled)', async () => {
    const { secret, creator } = await kit.key();
    const client = await kit.connect(secret);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();

    await kit.services.accounts.users.delete(await admin(), kit.demoTenantId, creator.id);
    await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toThrow(/api_key_disabled/);
  });
});
