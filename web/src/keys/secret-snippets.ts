/** Ready-to-paste ways to use a new key, for the one-time secret dialog. */
export function usageSnippets(origin: string, secret: string) {
  const api = `${origin}/api/v1`;
  return {
    curl: `curl -H "X-API-Key: ${secret}" ${api}/whoami`,
    query: `curl "${api}/flights?limit=10&api_key=${secret}"`,
    mcp: JSON.stringify(
      { mcpServers: { airkey: { type: 'http', url: `${origin}/mcp`, headers: { 'X-API-Key': secret } } } },
      null,
      2,
    ),
  };
}
