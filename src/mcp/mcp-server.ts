import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTools, type ToolContext } from './tools.ts';

// Loaded with this module, which mcp-routes.ts imports on the first /mcp request.
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const INSTRUCTIONS =
  "airkey gives read access to one airline's flight schedule, through the API key in use. " +
  'Use list_flights to search (filters combine; page with next_cursor), get_flight for one flight by id, ' +
  'and whoami to see the tenant, the key and its permissions. All times are UTC.';

/**
 * One MCP server per HTTP request (stateless Streamable HTTP): it exists only for the request
 * whose key was just checked, so every tool call runs with that request's principal.
 */
export function createMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'airkey', title: 'airkey flights', version: '1.0.0' },
    { instructions: INSTRUCTIONS },
  );
  registerTools(server, context);
  return server;
}
