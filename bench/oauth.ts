/**
 * Rows 16: OAuth access tokens (docs/oauth.md). On one fresh server, tokens got by the real flow
 * over HTTP (bench/oauth-flow.ts): `GET /api/v1/whoami` with a token for /api/v1 against the same
 * with the key, and MCP `tools/call whoami` (2026-07-28, as rows 15 send it) with a token for /mcp
 * against the key, all four loads in the same interleaved rounds (PGlite: a token's hit reads no
 * database); then the token endpoint, code → token, timed over sequential exchanges each from a
 * fresh authorization, on each engine.
 */
import type { AirkeyReady } from './airkey-server.ts';
import {
  interleavedRounds,
  load,
  pairOf,
  percentile,
  SMALL_DIFFERENCE,
  tally,
  type Load,
  type Sample,
} from './measure.ts';
import { postWithAutocannon, toolCall, type Post } from './mcp.ts';
import { OAuthFlow } from './oauth-flow.ts';
import { atLeast, atMost, type Row } from './rows.ts';
import type { Engine, Scenario, Settings } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { hasWrk, wrkLoad } from './wrk.ts';

const EXCHANGES = 200;
const WARM_UP_EXCHANGES = 20;
const TOKEN_P95_MS = 50;
/** A token is taken afresh when less than this is left of its 15 minutes: no load outlives it. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/** The header a load's credential goes in, and its value now (a token is renewed before it ends). */
type Credential = { header: string; value: () => Promise<string> };
type AuthLoad = Load & { post?: Post; credential: Credential };

export const oauthScenario: Scenario = {
  name: 'oauth',
  title: '16. OAuth access tokens and the token endpoint',
  engines: ['pglite', 'postgres'],
  alone: true,
  async run({ engine, airkey, settings }) {
    const server = (await airkey({})).info;
    const flow = await OAuthFlow.start(server);
    const rows = engine === 'pglite' ? await tokensVersusKey(server, flow, settings) : [];
    return [...rows, await tokenEndpoint(engine, flow, settings)];
  },
};

function bearer(flow: OAuthFlow, resource: string): Credential {
  let held: { token: string; renewAt: number } | undefined;
  return {
    header: 'Authorization',
    async value() {
      if (!held || Date.now() >= held.renewAt) {
        const tokens = await flow.tokens(resource);
        held = { token: tokens.access_token, renewAt: Date.now() + tokens.expires_in * 1000 - TOKEN_MARGIN_MS };
      }
      return `Bearer ${held.token}`;
    },
  };
}

/** wrk where the machine has it (the credential in its header field), autocannon otherwise. */
async function run(spec: Load): Promise<Sample> {
  const { post, credential } = spec as AuthLoad;
  const value = await credential.value();
  if (hasWrk)
    return wrkLoad({
      url: spec.url,
      connections: spec.connections,
      seconds: spec.seconds!,
      header: credential.header,
      keys: [value],
      ...(post ? { post } : {}),
    });
  const withCredential = { ...spec, headers: { [credential.header]: value } };
  return post ? postWithAutocannon(withCredential, post) : load(withCredential);
}

/** A token must be what whoami sees: credential "oauth" on the API, and the MCP tool saying so too. */
async function checkCredentials(airkey: AirkeyReady, api: Credential, mcp: Credential): Promise<void> {
  const viaApi = await fetch(`${airkey.url}/api/v1/whoami`, { headers: { [api.header]: await api.value() } });
  const apiBody = await viaApi.text();
  if (viaApi.status !== 200 || !apiBody.includes('"credential":"oauth"'))
    throw new Error(`bench OAuth: whoami with a token answered ${viaApi.status} ${apiBody}`);
  const call = toolCall('2026', 'whoami');
  const viaMcp = await fetch(`${airkey.url}/mcp`, {
    method: 'POST',
    headers: { ...call.headers, [mcp.header]: await mcp.value() },
    body: call.body,
  });
  const mcpBody = await viaMcp.text();
  if (viaMcp.status !== 200 || !/credential\\?":\s*\\?"oauth/.test(mcpBody) || mcpBody.includes('"isError":true'))
    throw new Error(`bench OAuth: MCP whoami with a token answered ${viaMcp.status} ${mcpBody}`);
}

async function tokensVersusKey(airkey: AirkeyReady, flow: OAuthFlow, s: Settings): Promise<Row[]> {
  const key: Credential = { header: 'X-API-Key', value: () => Promise.resolve(airkey.key) };
  const [api, mcp] = [bearer(flow, flow.resources.api), bearer(flow, flow.resources.mcp)];
  await checkCredentials(airkey, api, mcp);
  const spec = (path: string, credential: Credential, post?: Post): AuthLoad => ({
    url: `${airkey.url}${path}`,
    connections: s.connections,
    // A difference of a few percent: many short rounds, as the rate-limit rows (bench/README.md).
    seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
    credential,
    ...(post ? { post } : {}),
  });
  const call = toolCall('2026', 'whoami');
  s.log('whoami and MCP tools/call whoami (2026-07-28): an OAuth access token for each resource vs the key');
  const [apiToken, apiKey, mcpToken, mcpKey] = await interleavedRounds(
    [spec('/api/v1/whoami', api), spec('/api/v1/whoami', key), spec('/mcp', mcp, call), spec('/mcp', key, call)],
    Math.max(s.rounds, SMALL_DIFFERENCE.rounds),
    s.log,
    run,
  );
  const rows = (what: string, a: Sample[], b: Sample[]): Row[] => {
    const pair = pairOf(a, b);
    return [
      {
        what: `16. ${what}: req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        target: atLeast(0.95),
        bad: pair.bad,
      },
      {
        what: `16. ${what}: p99 ms`,
        value: fmt(pair.p99, 2),
        reference: fmt(pair.refP99, 2),
        ratio: fmt(pair.p99Ratio, 2),
        measured: { value: pair.p99, ratio: pair.p99Ratio },
        purpose: 'for information',
        bad: pair.bad,
      },
    ];
  };
  return [
    ...rows('GET /api/v1/whoami, access token vs key', apiToken!, apiKey!),
    ...rows('MCP tools/call whoami (2026-07-28), access token vs key', mcpToken!, mcpKey!),
  ];
}

/**
 * Code → token, one exchange at a time on a fresh authorization each (a code is good once): the
 * client's round trip of the token request alone, its body read. The provider answers the token
 * endpoint itself (no Server-Timing), so this is the server's time plus loopback.
 */
async function tokenEndpoint(engine: Engine, flow: OAuthFlow, s: Settings): Promise<Row> {
  s.log(`OAuth token endpoint on ${engine}: ${EXCHANGES} codes exchanged, each from a fresh authorization`);
  const ms: number[] = [];
  const flowMs: number[] = [];
  let bad = 0;
  for (let i = 0; i < WARM_UP_EXCHANGES + EXCHANGES; i++) {
    const began = performance.now();
    const { code, verifier } = await flow.authorize(flow.resources.mcp);
    const started = performance.now();
    const response = await flow.exchange(code, verifier);
    const body = (await response.json()) as { access_token?: string };
    const took = performance.now() - started;
    if (response.status !== 200 || !body.access_token) bad++;
    if (i < WARM_UP_EXCHANGES) continue;
    ms.push(took);
    flowMs.push(started - began);
  }
  tally({ requests: WARM_UP_EXCHANGES + EXCHANGES, non2xx: bad, errors: 0 });
  const p95 = percentile(ms, 95);
  s.log(
    `    token endpoint: p50 ${fmt(percentile(ms, 50), 1)}, p95 ${fmt(p95, 1)}, p99 ${fmt(percentile(ms, 99), 1)} ms; authorization and approval before it p50 ${fmt(percentile(flowMs, 50), 1)} ms`,
  );
  return {
    what: `16. OAuth token endpoint, code → token (${engine}) p95 ms (round trip)`,
    value: fmt(p95, 1),
    reference: `${TOKEN_P95_MS} ms`,
    ratio: fmt(p95 / TOKEN_P95_MS, 2),
    measured: { value: p95, ratio: p95 / TOKEN_P95_MS },
    target: atMost(TOKEN_P95_MS, 'value', ' ms'),
    bad,
  };
}
