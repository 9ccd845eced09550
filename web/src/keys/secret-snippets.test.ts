import { describe, expect, it } from 'vitest';
import { usageSnippets } from './secret-snippets.ts';

const secret = `ask_${'a'.repeat(60)}Xy9Z`;

describe('usage snippets of a new key', () => {
  const snippets = usageSnippets('https://airkey.example', secret);

  it('calls whoami with the X-API-Key header', () => {
    expect(snippets.curl).toBe(`curl -H "X-API-Key: ${secret}" https://airkey.example/api/v1/whoami`);
  });

  it('shows the api_key query fallback', () => {
    expect(new URL(snippets.query.slice(6, -1)).searchParams.get('api_key')).toBe(secret);
  });

  it('configures an MCP client against <origin>/mcp with the header', () => {
    const config = JSON.parse(snippets.mcp) as {
      mcpServers: { airkey: { url: string; headers: Record<string, string> } };
    };
    expect(config.mcpServers.airkey.url).toBe('https://airkey.example/mcp');
    expect(config.mcpServers.airkey.headers['X-API-Key']).toBe(secret);
  });
});
