import type { Harness, Session } from './harness.ts';
import { OAuthClient, approvedTokens } from './oauth-kit.ts';

export type Tokens = Awaited<ReturnType<typeof approvedTokens>>;

/** A registered app approved by `person` for `resource` ('mcp' by default): its client and tokens. */
export async function connectedApp(h: Harness, person: Session, resource: 'mcp' | 'api' = 'mcp') {
  const client = new OAuthClient(h);
  await client.register({ client_name: 'Resource test app' });
  const url = resource === 'mcp' ? `${h.config.publicUrl}/mcp` : `${h.config.publicUrl}/api/v1`;
  return { client, tokens: await approvedTokens(client, person, url) };
}

/** A GET over real HTTP with `Authorization: Bearer <token>`. */
export function bearerGet(base: string, path: string, token: string): Promise<Response> {
  return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

/** A stateless JSON-RPC call to /mcp over real HTTP with `Authorization: Bearer <token>`. */
export function bearerMcp(base: string, token: string, method: string, params: Record<string, unknown> = {}) {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

export type ToolResult<T> = { result: { structuredContent?: T; isError?: boolean; content: Array<{ text: string }> } };
