import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress } from '../support/instances.ts';
import { withKey, type KeyVia } from '../support/keys.ts';
import { waitFor } from '../support/wait-for.ts';
import { startTracedServer, type TracedServer } from './trace-kit.ts';

let traced: TracedServer;
beforeAll(async () => {
  traced = await startTracedServer();
}, 120_000);
afterAll(() => traced?.stop());

/** A refused key of the right shape: its secret must stay out of spans as well as a valid one's. */
const refused = `ask_${'Q'.repeat(64)}`;

async function send(key: string, path: string, via: KeyVia): Promise<number> {
  const request = withKey(key, `${traced.server.url}${path}`, via, { 'x-forwarded-for': clientAddress() });
  const response = await fetch(request.url, { headers: request.headers });
  await response.arrayBuffer();
  return response.status;
}

describe('exported spans never hold a key', () => {
  it('has no byte of the key in any export, whichever way the key came', async () => {
    const { secret } = traced.key;
    const sent: Array<[string, string, KeyVia, number]> = [
      [secret, '/api/v1/flights?limit=2', 'header', 200],
      [secret, '/api/v1/whoami', 'bearer', 200],
      [secret, '/api/v1/flights?limit=2', 'query', 200],
      [secret, '/api/v1/whoami', 'query', 200],
      [secret, '/api/v1/nowhere', 'query', 404],
      [refused, '/api/v1/whoami', 'query', 401],
      [refused, '/api/v1/flights', 'header', 401],
      [secret, `/api/v1/flights/${secret}`, 'header', 404],
    ];
    for (const [key, path, via, status] of sent) expect(await send(key, path, via), `${via} ${path}`).toBe(status);
    // An MCP call with the key in the query string too.
    const mcp = await fetch(`${traced.server.url}/mcp?api_key=${secret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
    });
    expect(mcp.status).toBe(200);
    await mcp.arrayBuffer();

    const serverSpans = () =>
      traced.receiver.spans.filter(
        (span) => span.kind === 2 && /^\/(api|mcp)/.test(String(span.attributes['url.path'])),
      );
    await waitFor(() => serverSpans().length >= sent.length + 1, { timeoutMs: 10_000, what: 'every server span' });
    // The query-string requests really were traced, with the key cut out of what they recorded.
    const queried = serverSpans().filter((span) => span.attributes['http.route'] === '/api/v1/whoami');
    expect(queried.some((span) => span.attributes['airkey.key_check.outcome'] === 'api_key_invalid')).toBe(true);
    expect(serverSpans().some((span) => String(span.attributes['url.path']).includes('ask_[REDACTED]'))).toBe(true);

    const everything = Buffer.concat(traced.receiver.bodies);
    expect(everything.length).toBeGreaterThan(0);
    for (const key of [secret, refused]) {
      expect(everything.includes(key), 'the key in the raw OTLP bytes').toBe(false);
      // Not even the random part alone, nor URL-encoded.
      expect(everything.includes(key.slice(4)), 'the key body in the raw OTLP bytes').toBe(false);
      expect(everything.includes(encodeURIComponent(key))).toBe(false);
    }
    expect(JSON.stringify(traced.receiver.spans)).not.toContain(secret.slice(4));
    // Nor in a log line written while those spans were active.
    expect(traced.server.output()).not.toContain(secret.slice(4));
  });
});
