import { McpServer } from '@modelcontextprotocol/server';
import { registerTools, type ToolContext } from './tools.ts';

const INSTRUCTIONS =
  "airkey gives read access to one airline's flight schedule, through the API key in use. " +
  'Use list_flights to search (filters combine; page with next_cursor), get_flight for one flight by id, ' +
  'and whoami to see the tenant, the key and its permissions. All times are UTC.';

/**
 * How long a 2026-07-28 host may reuse `server/discover` and `tools/list`. Both are built from
 * code alone: the same three tools, schemas and instructions for every key of every tenant (a key
 * without flights:read sees the same list and is refused per call, as a tool error). Nothing in
 * them depends on who asks, so `public` is right: a shared cache may serve one key's answer to
 * another. An hour, because a new release is the only thing that changes them.
 */
const SAME_FOR_EVERY_KEY = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

/**
 * One MCP server per HTTP request (stateless in both eras): it exists only for the request whose
 * key was just checked, so every tool call runs with that request's principal.
 */
export function createMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'airkey', title: 'airkey flights', version: '1.0.0' },
    {
      instructions: INSTRUCTIONS,
      // The tool list never changes while a server runs: no host should hold a stream open (or
      // wait) for a list_changed notification that cannot come.
      capabilities: { tools: { listChanged: false } },
      cacheHints: { 'server/discover': SAME_FOR_EVERY_KEY, 'tools/list': SAME_FOR_EVERY_KEY },
    },
  );
  registerTools(server, context);
  return server;
}
