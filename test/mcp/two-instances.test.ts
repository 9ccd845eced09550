import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { ADMIN, airkeyEnv, cli, signIn, startInstance, type Instance } from '../support/instances.ts';
import { CLIENTS, EXPECTED_REVISION } from './clients.ts';
import { keyProxy } from './key-proxy.ts';

const ERAS = Object.keys(CLIENTS) as Array<keyof typeof CLIENTS>;

/**
 * Two `airkey serve` processes on one PostgreSQL database behind one port, a balancer sending
 * each request to the other instance in turn: nothing of an MCP conversation lives in one
 * process (no session, in either protocol era), so a client never notices which answered.
 */
describe('MCP on two instances behind one port', () => {
  let a: Instance;
  let b: Instance;
  let balancer: Awaited<ReturnType<typeof keyProxy>>;

  beforeAll(async () => {
    const databaseUrl = await freshPostgresUrl();
    a = await startInstance('mcp-a', databaseUrl);
    b = await startInstance('mcp-b', databaseUrl);
    const admin = await signIn(a, ADMIN.email);
    const created = await admin.request<{ secret: string }>(a, 'POST', '/backoffice/api/api-keys', { name: 'agent' });
    expect(created.status).toBe(201);
    const whoami = await fetch(`${a.url}/api/v1/whoami`, { headers: { 'x-api-key': created.body.secret } });
    const { tenant } = (await whoami.json()) as { tenant: { slug: string } };
    await cli(['flights', 'seed', '--tenant', tenant.slug, '--count', '6'], airkeyEnv(databaseUrl));
    balancer = await keyProxy([a.url, b.url], { 'x-api-key': created.body.secret });
  }, 180_000);
  afterAll(async () => {
    await balancer?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it.each(ERAS)('serves the %s client whichever instance answers each request', async (era) => {
    const before = new Map(balancer.sentTo);
    const client = await CLIENTS[era](new URL(balancer.url), {});
    try {
      expect(client.revision()).toBe(EXPECTED_REVISION[era]);
      expect((await client.listTools()).tools).toHaveLength(3);
      const page = await client.callTool({ name: 'list_flights', arguments: { limit: 3 } });
      const { data } = page.structuredContent as { data: Array<{ id: string }> };
      expect(data).toHaveLength(3);
      for (const { id } of data) {
        const flight = await client.callTool({ name: 'get_flight', arguments: { id } });
        expect(flight.structuredContent).toMatchObject({ id });
      }
      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      expect(whoami.structuredContent).toMatchObject({ permissions: ['flights:read'] });
    } finally {
      await client.close();
    }
    for (const instance of [a, b]) {
      const origin = new URL(instance.url).origin;
      expect(balancer.sentTo.get(origin)! - (before.get(origin) ?? 0), instance.name).toBeGreaterThanOrEqual(3);
    }
  });
});
