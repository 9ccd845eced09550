import { describe, expect, it } from 'vitest';
import { signedInAs } from '../support/actors.ts';
import { ADMIN_EMAIL, useMcpServer, type McpTestServer } from '../support/mcp-server.ts';

/** One stateless MCP request: a tools/call. */
async function callTool(
  kit: McpTestServer,
  secret: string,
  name: string,
): Promise<{ isError?: boolean; content: Array<{ text: string }> }> {
  const response = await fetch(kit.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': secret },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } }).result;
}

describe('usage of MCP requests', () => {
  const kit = useMcpServer();

  it('counts tool calls as ok, and a call refused for lack of permission as rejected', async () => {
    const { secret, api_key, creator } = await kit.key();
    const admin = signedInAs(await kit.services.accounts.users.requireByEmail(ADMIN_EMAIL));
    expect((await callTool(kit, secret, 'list_flights')).isError).toBeFalsy();
    expect((await callTool(kit, secret, 'whoami')).isError).toBeFalsy();
    await kit.services.accounts.users.update(admin, kit.demoTenantId, creator.id, { roles: ['crew'] });
    const refused = await callTool(kit, secret, 'list_flights');
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^permission_denied/);
    await kit.services.usage.counter.flush();
    expect((await kit.services.usage.reports.forKey(admin, api_key.id, '24h')).total).toEqual({
      ok: 2,
      rejected: 1,
      rate_limited: 0,
      ip_refused: 0,
      quota_exceeded: 0,
    });
  });
});
