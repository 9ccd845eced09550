import { describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import { listening } from '../../support/request-log-kit.ts';
import { useHarness } from '../../support/use.ts';

/** RFC 9728: how a host that got a 401 from /mcp or /api/v1 finds the authorization server (docs/oauth.md). */
describe('protected resource metadata', () => {
  const h = useHarness({ app: { plugins: [mcpRoutes] } });
  const metadataOf = (path: string) => `${h.config.publicUrl}/.well-known/oauth-protected-resource${path}`;

  it.each(['/mcp', '/api/v1'])('publishes the document of %s naming the issuer', async (path) => {
    const base = await listening(h);
    const response = await fetch(`${base}/.well-known/oauth-protected-resource${path}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: `${h.config.publicUrl}${path}`,
      authorization_servers: [`${h.config.publicUrl}/oauth`],
      scopes_supported: ['access'],
      bearer_methods_supported: ['header'],
      resource_name: path === '/mcp' ? 'airkey MCP server' : 'airkey API',
    });
  });

  it('names the metadata in the 401 of a request without a credential, and of a refused key', async () => {
    const base = await listening(h);
    const bare = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(
      `Bearer realm="airkey", resource_metadata="${metadataOf('/mcp')}"`,
    );
    const key = await fetch(`${base}/api/v1/whoami`, { headers: { 'x-api-key': `ask_${'A'.repeat(64)}` } });
    expect(key.status).toBe(401);
    expect(key.headers.get('www-authenticate')).toBe(
      `Bearer realm="airkey", error="invalid_token", resource_metadata="${metadataOf('/api/v1')}"`,
    );
  });
});
