import { describe, expect, it } from 'vitest';
import { post, UNKNOWN_KEY, useMcpServer } from '../support/mcp-server.ts';

describe('MCP origins from configuration', () => {
  const kit = useMcpServer('pglite', {
    publicUrl: 'https://airkey.example.com',
    mcpAllowedOrigins: ['https://agent.example.org'],
  });

  it('accepts the PUBLIC_URL origin and MCP_ALLOWED_ORIGINS, and refuses a look-alike', async () => {
    const { secret } = await kit.key();
    for (const origin of ['https://airkey.example.com', 'https://agent.example.org']) {
      expect((await post(kit, { 'x-api-key': secret, origin })).status, origin).toBe(200);
    }
    for (const origin of ['http://airkey.example.com', 'https://agent.example.org:8443', 'null']) {
      const refused = await post(kit, { 'x-api-key': secret, origin });
      expect(refused.status, origin).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'origin_rejected' });
    }
  });
});

describe('MCP under a burst of bad keys', () => {
  const kit = useMcpServer();

  it('answers 429 problem+json with Retry-After to the client, while a valid key in use keeps working', async () => {
    const { secret } = await kit.key();
    // In use before the burst: the key check keeps serving known valid keys to a throttled client.
    const client = await kit.connect(secret);
    let response: Response | undefined;
    for (let attempt = 0; attempt < 30; attempt += 1) {
      response = await post(kit, { 'x-api-key': UNKNOWN_KEY });
      if (response.status === 429) break;
      expect(response.status).toBe(401);
    }
    expect(response?.status).toBe(429);
    expect(Number(response?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response?.json()).toMatchObject({ code: 'too_many_requests' });

    expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
  });
});
