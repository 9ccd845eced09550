import type { LightMyRequestResponse } from 'fastify';
import type { Harness } from './harness.ts';

/**
 * One stateless MCP JSON-RPC call through `inject`, as an agent's HTTP client sends it. The harness
 * must be built with the MCP routes (`useHarness({ app: { plugins: [mcpRoutes] } })`).
 */
export function mcpCall(
  h: Harness,
  key: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method, params },
  });
}
