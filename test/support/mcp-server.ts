import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig, type Config } from '../../src/config.ts';
import { generateFlights } from '../../src/flights/flight-seeder.ts';
import { startServer } from '../../src/server.ts';
import type { Role } from '../../src/shared/roles.ts';
import type { UserWithTenant } from '../../src/users/user-repository.ts';
import { signedInAs } from './actors.ts';
import { storageFor, type Engine } from './databases.ts';
import { TEST_PASSWORD } from './harness.ts';
import { withKey, type KeyVia } from './keys.ts';
import { captureLogs } from './log-capture.ts';
import { useFixture } from './use.ts';
import { ManualClock, START } from './manual-clock.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';

export const ADMIN_EMAIL = 'admin@demo.airkey.test';
export type { KeyVia };

/**
 * A real listening airkey server (bootstrapped tenant "demo", no sample flights) and an MCP client
 * factory using the SDK's own Client and Streamable HTTP transport, as an agent would.
 */
export async function startMcpTestServer(engine: Engine = 'pglite', config: Partial<Config> = {}) {
  const clock = new ManualClock(START);
  const { lines: logs, stream: logStream } = captureLogs();
  const server = await startServer(
    {
      ...loadConfig({}),
      ...(await storageFor(engine)),
      port: 0,
      demo: false,
      adminEmail: ADMIN_EMAIL,
      adminPassword: TEST_PASSWORD,
      logLevel: 'info',
      usageFlushMs: 60_000,
      ...config,
    },
    { overrides: { clock }, logStream },
  );
  const { services } = server;
  const demoTenantId = (await services.accounts.users.requireByEmail(ADMIN_EMAIL)).tenantId;
  const mcpUrl = new URL('/mcp', server.url);
  const clients: Client[] = [];

  /** A user in `tenantId` (the demo tenant by default) who can create keys unless told otherwise. */
  async function user(roles: Role[] = ['system_administrator'], tenantId = demoTenantId): Promise<UserWithTenant> {
    const email = `${randomBytes(4).toString('hex')}@example.test`;
    await services.accounts.users.create(SYSTEM_ACTOR, tenantId, {
      email,
      name: 'MCP Test User',
      password: TEST_PASSWORD,
      roles,
    });
    return services.accounts.users.requireByEmail(email);
  }

  const kit = {
    server,
    services,
    clock,
    logs,
    mcpUrl,
    demoTenantId,

    user,

    /** A key created by `creator` (a new System Administrator of the demo tenant by default). */
    async key(creator?: UserWithTenant) {
      const by = creator ?? (await user());
      const created = await services.keys.lifecycle.create(signedInAs(by), { name: 'MCP test key' });
      return { ...created, creator: by };
    },

    async seedFlights(tenantId: string, count: number, seed = 1) {
      await services.flights.seed(SYSTEM_ACTOR, generateFlights(tenantId, count, clock.now(), seed));
    },

    /** A connected MCP client sending `key` the chosen way; closed by stop(). */
    async connect(key: string | undefined, via: KeyVia = 'header'): Promise<Client> {
      const { url, headers } = withKey(key, mcpUrl.toString(), via);
      const client = new Client({ name: 'airkey-test', version: '1.0.0' });
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      return client;
    },

    async stop() {
      await Promise.allSettled(clients.map((client) => client.close()));
      await server.stop();
    },
  };
  return kit;
}

export type McpTestServer = Awaited<ReturnType<typeof startMcpTestServer>>;

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const [first] = (result as CallToolResult).content;
  return first?.type === 'text' ? first.text : '';
}

/** One MCP test server for the enclosing `describe` (or file): started before its tests, stopped after. */
export function useMcpServer(engine: Engine = 'pglite', config: Partial<Config> = {}): McpTestServer {
  return useFixture(
    () => startMcpTestServer(engine, config),
    (kit) => kit.stop(),
  );
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
export const UNKNOWN_KEY = `ask_${'Q'.repeat(64)}`;

/** A raw MCP POST, as any Streamable HTTP client sends it. */
export function post(
  kit: McpTestServer,
  headers: Record<string, string>,
  body: unknown = INITIALIZE,
  url: URL = kit.mcpUrl,
) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}
