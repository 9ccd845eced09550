/**
 * What a key's IP allowlist costs (docs/keys.md (IP allowlists)): whoami with a key allowed from 50 entries, the
 * bench's own address being the last of them (every range is tried before the match), against
 * the same with a key that has no list. Both sides hit the same server in interleaved rounds, so
 * only the key differs; the ranges are compiled once when the key's facts are cached, so what
 * is left per request is integer comparisons.
 */
import { createBenchKeys } from './bench-keys.ts';
import { interleaved, SMALL_DIFFERENCE, type Load } from './measure.ts';
import { atLeast } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { keyLoad } from './wrk.ts';

/** 49 ranges the bench's client is not in, then the loopback address it connects from. */
export const FIFTY_ENTRIES = [...Array.from({ length: 49 }, (_, i) => `198.${18 + (i % 2)}.${i}.0/24`), '127.0.0.1'];

export const allowlists: Scenario = {
  name: 'allowlists',
  title: '10. IP allowlists',
  engines: ['pglite', 'postgres'],
  async run({ engine, subject, settings: s }) {
    const airkey = await subject();
    const [listed, open] = await createBenchKeys(airkey, [{ allowed_ips: FIFTY_ENTRIES }, { allowed_ips: null }]);
    const whoami = (key: string): Load => ({
      url: `${airkey.url}/api/v1/whoami`,
      headers: { 'x-api-key': key },
      connections: s.connections,
      seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
    });
    const rounds = Math.max(s.rounds, SMALL_DIFFERENCE.rounds);
    s.log(`allowlists on ${engine}: whoami with a 50-entry allowlist vs the same key without one`);
    const pair = await interleaved(whoami(listed!), whoami(open!), rounds, s.log, keyLoad);
    return [
      {
        what: `10. IP allowlists (${engine}): whoami, 50-entry allowlist (allowed) vs none req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        target: atLeast(0.97),
        bad: pair.bad,
      },
    ];
  },
};
