import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../support/actors.ts';
import { ADMIN_EMAIL, textOf, UNKNOWN_KEY, useMcpServer } from '../support/mcp-server.ts';
import { CLIENTS, EXPECTED_REVISION, type AnyClient } from './clients.ts';

const ERAS = Object.keys(CLIENTS) as Array<keyof typeof CLIENTS>;

/** The same three tools and the same refusals, whichever client and protocol revision a host brings. */
describe.each(ERAS)('MCP with the %s client', (era) => {
  const kit = useMcpServer();
  const opened: AnyClient[] = [];
  beforeAll(async () => kit.seedFlights(kit.demoTenantId, 4));
  afterAll(async () => void (await Promise.allSettled(opened.map((client) => client.close()))));

  async function connect(secret: string): Promise<AnyClient> {
    const client = await CLIENTS[era](kit.mcpUrl, { 'x-api-key': secret });
    opened.push(client);
    return client;
  }
  const admin = async () => signedInAs(await kit.services.accounts.users.requireByEmail(ADMIN_EMAIL));

  it('settles on its revision and lists the three tools with their input and output schemas', async () => {
    const client = await connect((await kit.key()).secret);
    expect(client.revision()).toBe(EXPECTED_REVISION[era]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_flight', 'list_flights', 'whoami']);
    for (const tool of tools) {
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object' });
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    }
  });

  it('calls each tool: structuredContent, and a text block holding the same JSON', async () => {
    const { secret, api_key } = await kit.key();
    const client = await connect(secret);

    const page = await client.callTool({ name: 'list_flights', arguments: { limit: 2 } });
    const { data, next_cursor } = page.structuredContent as { data: Array<{ id: string }>; next_cursor: string };
    expect(data).toHaveLength(2);
    expect(next_cursor).toEqual(expect.any(String));
    expect(JSON.parse(textOf(page))).toEqual(page.structuredContent);

    const flight = await client.callTool({ name: 'get_flight', arguments: { id: data[0]!.id } });
    expect(flight.structuredContent).toMatchObject({ id: data[0]!.id });
    expect(JSON.parse(textOf(flight))).toEqual(flight.structuredContent);

    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    expect(whoami.structuredContent).toMatchObject({ key: { id: api_key.id }, permissions: ['flights:read'] });
    expect(JSON.parse(textOf(whoami))).toEqual(whoami.structuredContent);
  });

  it('refuses to connect with an unknown key', async () => {
    await expect(connect(UNKNOWN_KEY)).rejects.toThrow(/401|api_key_invalid|Unauthorized/);
  });

  it('gives a tool error, never data, to a key without flights:read', async () => {
    // The key acts with its creator's authority: a creator moved to crew takes flights:read away.
    const { secret, creator } = await kit.key();
    await kit.services.accounts.users.update(await admin(), kit.demoTenantId, creator.id, { roles: ['crew'] });
    const client = await connect(secret);
    const refused = await client.callTool({ name: 'list_flights', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    expect(textOf(refused)).toMatch(/^permission_denied: .*flights:read/);
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    expect(whoami.structuredContent).toMatchObject({ permissions: [] });
  });

  it('refuses a key disabled after connecting on its very next request', async () => {
    const { secret, api_key } = await kit.key();
    const client = await connect(secret);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();

    await kit.services.keys.lifecycle.setEnabled(await admin(), api_key.id, false);
    await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toThrow(/api_key_disabled|401/);
    await kit.services.keys.lifecycle.setEnabled(await admin(), api_key.id, true);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
  });
});
