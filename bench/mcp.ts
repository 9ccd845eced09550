/**
 * Rows 15: MCP. A `tools/call list_flights` in the 2026-07-28 era (headers and the `_meta`
 * envelope, no session) against the same call from a 2025-11-25 client, and MCP's whoami in both
 * eras against `GET /api/v1/whoami`, all on the one shared server in the same interleaved rounds.
 */
import autocannon from 'autocannon';
import { interleavedRounds, pairOf, tally, type Load, type Sample } from './measure.ts';
import { atLeast, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { hasWrk, keyLoad, wrkLoad } from './wrk.ts';

const REVISION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A tools/call as each era's client sends it: headers (besides the key) and body. */
function toolCall(era: '2026' | '2025', name: string): { headers: Record<string, string>; body: string } {
  const params = { name, arguments: {}, ...(era === '2026' ? { _meta: META } : {}) };
  const headers =
    era === '2026'
      ? { ...ACCEPT, 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/call', 'mcp-name': name }
      : { ...ACCEPT, 'mcp-protocol-version': '2025-11-25' };
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) };
}

export const mcpScenario: Scenario = {
  name: 'mcp',
  title: '15. MCP',
  engines: ['pglite'],
  async run({ subject, settings }) {
    const airkey = await subject();
    const posts = new Map<Load, { headers: Record<string, string>; body: string }>();
    const load = (path: string, post?: { headers: Record<string, string>; body: string }): Load => {
      const spec = { url: `${airkey.url}${path}`, headers: { 'x-api-key': airkey.key }, ...settingsOf(settings) };
      if (post) posts.set(spec, post);
      return spec;
    };
    const run = (spec: Load): Promise<Sample> => {
      const post = posts.get(spec);
      if (!post) return keyLoad(spec);
      if (hasWrk)
        return wrkLoad({
          url: spec.url,
          connections: spec.connections,
          seconds: spec.seconds!,
          keys: [airkey.key],
          post,
        });
      return postWithAutocannon(spec, post);
    };

    settings.log(
      'MCP tools/call list_flights, 2026-07-28 vs 2025-11-25; MCP whoami in both eras vs GET /api/v1/whoami',
    );
    const loads = [
      load('/mcp', toolCall('2026', 'list_flights')),
      load('/mcp', toolCall('2025', 'list_flights')),
      load('/mcp', toolCall('2026', 'whoami')),
      load('/mcp', toolCall('2025', 'whoami')),
      load('/api/v1/whoami'),
    ];
    const [list26, list25, whoami26, whoami25, apiWhoami] = await interleavedRounds(
      loads,
      settings.rounds,
      settings.log,
      run,
    );
    const lists = pairOf(list26!, list25!);
    const rows: Row[] = [
      {
        what: '15. MCP tools/call list_flights, 2026-07-28 vs 2025-11-25: req/s',
        value: fmt(lists.rps),
        reference: fmt(lists.refRps),
        ratio: fmt(lists.ratio, 2),
        measured: { value: lists.rps, ratio: lists.ratio },
        target: atLeast(0.95),
        bad: lists.bad,
      },
    ];
    for (const [era, samples] of [
      ['2026-07-28', whoami26!],
      ['2025-11-25', whoami25!],
    ] as const) {
      const pair = pairOf(samples, apiWhoami!);
      rows.push({
        what: `15. MCP tools/call whoami (${era}) vs GET /api/v1/whoami: req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        purpose: 'where MCP stands against the API',
        bad: pair.bad,
      });
    }
    return rows;
  },
};

const settingsOf = (s: { connections: number; seconds: number }) => ({
  connections: s.connections,
  seconds: s.seconds,
});

/** Where the machine has no wrk: the same POST from autocannon. */
async function postWithAutocannon(spec: Load, post: { headers: Record<string, string>; body: string }) {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds ?? 5,
    method: 'POST',
    headers: { ...spec.headers, ...post.headers },
    body: post.body,
  });
  const sample = {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    requests: result.requests.total,
  };
  tally(sample, spec.expect, spec.url);
  return sample;
}
