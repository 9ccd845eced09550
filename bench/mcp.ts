/**
 * Rows 15: MCP. A `tools/call list_flights` in the 2026-07-28 era (headers and the `_meta`
 * envelope, no session) against the same call from a 2025-11-25 client, on today's code and on the
 * last code on the 1.x SDK (BENCH_MCP_BASE, another commit), and MCP's whoami against
 * `GET /api/v1/whoami` on each: two fresh servers, every load in the same interleaved rounds.
 */
import { execSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type { AirkeyReady } from './airkey-server.ts';
import {
  AS_NPM_START,
  interleavedRounds,
  NPM_START_NODE_FLAGS,
  pairOf,
  startServer,
  tally,
  type Load,
  type Sample,
} from './measure.ts';
import { atLeast, type Row } from './rows.ts';
import type { Scenario, Settings } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { hasWrk, keyLoad, wrkLoad } from './wrk.ts';

export type Post = { headers: Record<string, string>; body: string };
type PostLoad = Load & { post?: Post };

const REVISION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A tools/call as each era's client sends it: headers (besides the key) and body. */
export function toolCall(era: '2026' | '2025', name: string): Post {
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
  alone: true,
  async run({ airkey, settings }) {
    const today = (await airkey({})).info;
    const base = checkout(process.env.BENCH_MCP_BASE);
    const before = await startServer<AirkeyReady>(
      pathToFileURL(join(base.dir, 'bench/airkey-server.ts')).href,
      { ...AS_NPM_START, BENCH_FLIGHTS_NOW: '2026-11-22T12:00:00Z', BENCH_ENGINE: 'pglite' },
      undefined,
      'server',
      { nodeFlags: [...NPM_START_NODE_FLAGS] },
    );
    try {
      return await compare(today, before.info, base.rev, settings);
    } finally {
      await before.stop();
    }
  },
};

async function compare(today: AirkeyReady, before: AirkeyReady, rev: string, settings: Settings): Promise<Row[]> {
  // The POST rides on the load itself: the warm-up runs copies of it.
  const load = (on: AirkeyReady, path: string, post?: Post): PostLoad => ({
    url: `${on.url}${path}`,
    headers: { 'x-api-key': on.key },
    connections: settings.connections,
    seconds: settings.seconds,
    ...(post ? { post } : {}),
  });
  const run = (spec: PostLoad): Promise<Sample> => {
    const { post } = spec;
    if (!post) return keyLoad(spec);
    if (hasWrk)
      return wrkLoad({
        url: spec.url,
        connections: spec.connections,
        seconds: spec.seconds!,
        keys: [spec.headers!['x-api-key']!],
        post,
      });
    return postWithAutocannon(spec, post);
  };

  settings.log(`MCP tools/call list_flights and whoami by era, today and on the SDK 1.x code (${rev}), and API whoami`);
  const [list26, list25, list25Before, whoami26, whoami25, whoami25Before, api, apiBefore] = await interleavedRounds(
    [
      load(today, '/mcp', toolCall('2026', 'list_flights')),
      load(today, '/mcp', toolCall('2025', 'list_flights')),
      load(before, '/mcp', toolCall('2025', 'list_flights')),
      load(today, '/mcp', toolCall('2026', 'whoami')),
      load(today, '/mcp', toolCall('2025', 'whoami')),
      load(before, '/mcp', toolCall('2025', 'whoami')),
      load(today, '/api/v1/whoami'),
      load(before, '/api/v1/whoami'),
    ],
    settings.rounds,
    settings.log,
    run,
  );
  const row = (what: string, a: Sample[], b: Sample[], target?: number): Row => {
    const pair = pairOf(a, b);
    return {
      what: `15. ${what}: req/s`,
      value: fmt(pair.rps),
      reference: fmt(pair.refRps),
      ratio: fmt(pair.ratio, 2),
      measured: { value: pair.rps, ratio: pair.ratio },
      ...(target === undefined ? { purpose: 'for information' } : { target: atLeast(target) }),
      bad: pair.bad,
    };
  };
  const old = `SDK 1.x, ${rev.slice(0, 7)}`;
  return [
    row(`MCP list_flights, 2026-07-28 vs 2025-11-25 on the SDK 1.x code (${old})`, list26!, list25Before!, 0.95),
    row('MCP list_flights, 2026-07-28 vs 2025-11-25, both today', list26!, list25!, 0.95),
    row('MCP list_flights, 2025-11-25 today vs on the SDK 1.x code', list25!, list25Before!),
    row('MCP whoami (2026-07-28) vs GET /api/v1/whoami', whoami26!, api!),
    row('MCP whoami (2025-11-25) vs GET /api/v1/whoami', whoami25!, api!),
    row(`MCP whoami vs GET /api/v1/whoami on the SDK 1.x code (${old})`, whoami25Before!, apiBefore!),
  ];
}

/** The code before SDK v2 (the last commit on SDK 1.x), with today's bench server file, beside the shared node_modules. */
function checkout(rev = SDK_1X) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'airkey-bench-mcp-'));
  execSync(`git archive ${rev} src drizzle test/support package.json tsconfig.json | tar -x -C ${dir}`, { cwd: root });
  mkdirSync(join(dir, 'bench'));
  copyFileSync(join(root, 'bench/airkey-server.ts'), join(dir, 'bench/airkey-server.ts'));
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'));
  return { dir, rev };
}
// The last commit whose MCP server ran on @modelcontextprotocol/sdk 1.x.
const SDK_1X = 'b0d69f8';

/** Where the machine has no wrk: the same POST from autocannon. */
export async function postWithAutocannon(spec: Load, post: Post) {
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
