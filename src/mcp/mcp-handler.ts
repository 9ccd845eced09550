import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { createMcpServer } from './mcp-server.ts';
import type { ToolContext } from './tools.ts';

/** Serves one checked MCP request: the web Request (headers only), Fastify's parsed body and the key's tool context. */
export type McpExchange = (request: Request, body: unknown, context: ToolContext) => Promise<Response>;

/**
 * Both protocol eras on one endpoint, from one server factory (the same three tools).
 *
 * - 2026-07-28 (a request carrying the per-request `_meta` envelope) goes to the SDK's
 *   `createMcpHandler`, which owns that revision's rules: `server/discover`, the
 *   `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` checks (-32020), unsupported revisions
 *   (-32022), `resultType` and the cache hints.
 * - Everything else (a 2025-11-25, 2025-06-18 or 2025-03-26 client, which begins with
 *   `initialize`) is served statelessly as before: a fresh server and transport per request,
 *   answering with one JSON body. The SDK's own stateless fallback would answer over SSE; JSON is
 *   what hosts already get from airkey, and it is cheaper to write.
 */
export function createMcpExchange(onError: (error: Error) => void): McpExchange {
  // The SDK builds modern-era servers itself, from the web Request it was handed: the tool context
  // (the principal this request's key check produced) travels with that Request.
  const contexts = new WeakMap<Request, ToolContext>();
  const modern = createMcpHandler(
    ({ requestInfo }: McpRequestContext) => {
      const context = requestInfo && contexts.get(requestInfo);
      if (context === undefined) throw new Error('an MCP request reached the SDK without a checked key');
      return createMcpServer(context);
    },
    { legacy: 'reject', onerror: onError },
  );

  return async function exchange(request, body, context) {
    if (await isLegacyRequest(request, body)) return serveLegacy(request, body, context);
    contexts.set(request, context);
    return modern.fetch(request, { parsedBody: body });
  };
}

async function serveLegacy(request: Request, parsedBody: unknown, context: ToolContext): Promise<Response> {
  const server = createMcpServer(context);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    void transport.close();
    void server.close();
  }
}
