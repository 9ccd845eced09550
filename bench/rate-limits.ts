/**
 * What a key's rate limit costs (docs/keys.md (Rate limits)): whoami with a key under a generous limit against the
 * same with an unlimited key, and the 429 path of a key over its limit against the unlimited key's
 * 200 (the target) and, for information, the limited key's 200, which carries the same header
 * fields. Both sides hit the same server in interleaved rounds, so only the key differs.
 */
import type { AirkeyReady } from './airkey-server.ts';
import { createBenchKeys } from './bench-keys.ts';
import { interleaved, SMALL_DIFFERENCE, type Load, type Pair } from './measure.ts';
import { atLeast, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { keyLoad } from './wrk.ts';

export type Limit = { requests: number; window: '1s' | '1m' | '1h' | '1d' } | null;

/** Signs in as the bench's administrator and creates keys with the given limits. */
export function createKeys(airkey: AirkeyReady, limits: Limit[]): Promise<string[]> {
  return createBenchKeys(
    airkey,
    limits.map((limit) => ({ rate_limit: limit })),
  );
}

/** Sends a one-a-day key its one request, after which it is answered 429. */
export async function spend(airkey: AirkeyReady, key: string): Promise<void> {
  const first = await fetch(`${airkey.url}/api/v1/whoami`, { headers: { 'x-api-key': key } });
  await first.arrayBuffer();
  if (first.status !== 200) throw new Error(`the spent key's one request: ${first.status}`);
}

/** Every answer on the refused side must be the 429 (non-2xx), none on the other. */
function refusalsOnly(pair: Pair): number {
  return (
    pair.reference.non2xx + pair.reference.errors + (pair.subject.requests - pair.subject.non2xx) + pair.subject.errors
  );
}

function row(what: string, pair: Pair, minRatio: number, bad: number, informational = false): Row {
  return {
    informational,
    what,
    value: fmt(pair.rps),
    reference: fmt(pair.refRps),
    ratio: fmt(pair.ratio, 2),
    measured: { value: pair.rps, ratio: pair.ratio },
    target: atLeast(minRatio),
    bad,
  };
}

export const rateLimits: Scenario = {
  name: 'ratelimits',
  title: '8. rate limits',
  engines: ['pglite', 'postgres'],
  async run({ engine, subject, settings: s }) {
    const airkey = await subject();
    // Generous: a billion a day is never reached here. Spent: one a day, used up below.
    const [generous, unlimited, spent] = await createKeys(airkey, [
      { requests: 1_000_000_000, window: '1d' },
      null,
      { requests: 1, window: '1d' },
    ]);
    const whoami = (key: string, expect: Load['expect'] = '2xx'): Load => ({
      url: `${airkey.url}/api/v1/whoami`,
      headers: { 'x-api-key': key },
      connections: s.connections,
      seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
      expect,
    });
    await spend(airkey, spent!);

    const rounds = Math.max(s.rounds, SMALL_DIFFERENCE.rounds);
    s.log(`rate limits on ${engine}: whoami under a generous limit vs an unlimited key`);
    const limited = await interleaved(whoami(generous!), whoami(unlimited!), rounds, s.log, keyLoad);
    s.log(`rate limits on ${engine}: the 429 path vs the 200 path`);
    const refused = await interleaved(whoami(spent!, 'refusal'), whoami(unlimited!), rounds, s.log, keyLoad);
    s.log(`rate limits on ${engine}: the 429 path vs a limited key's 200 path`);
    const refusedLimited = await interleaved(whoami(spent!, 'refusal'), whoami(generous!), rounds, s.log, keyLoad);
    return [
      row(`8. rate limits (${engine}): whoami, generous limit vs unlimited key req/s`, limited, 0.95, limited.bad),
      row(`8. rate limits (${engine}): 429 path vs 200 path req/s`, refused, 1.0, refusalsOnly(refused)),
      row(
        `8. rate limits (${engine}): 429 path vs a limited key's 200 req/s`,
        refusedLimited,
        1.0,
        refusalsOnly(refusedLimited),
        true,
      ),
    ];
  },
};
