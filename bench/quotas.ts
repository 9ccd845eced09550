/**
 * What a key's quota costs (SPEC §11): whoami with a key under a generous monthly quota, and with a
 * generous rate limit and quota both, against an unlimited key on the same server in interleaved
 * rounds. A generous quota leases slices of 1/200 of it (5,000,000 here), so a request spends from
 * memory: no database write per request, which the store's row count after the run shows.
 */
import { createBenchKeys } from './bench-keys.ts';
import { interleaved, SMALL_DIFFERENCE, type Load } from './measure.ts';
import { atLeast } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { keyLoad } from './wrk.ts';

const GENEROUS_QUOTA = { requests: 1_000_000_000, period: 'month' };
const GENEROUS_LIMIT = { requests: 1_000_000_000, window: '1h' };

export const quotas: Scenario = {
  name: 'quotas',
  title: '11. quotas',
  engines: ['pglite', 'postgres'],
  async run({ engine, subject, settings: s }) {
    const airkey = await subject();
    const [metered, both, open] = await createBenchKeys(airkey, [
      { quota: GENEROUS_QUOTA },
      { quota: GENEROUS_QUOTA, rate_limit: GENEROUS_LIMIT },
      {},
    ]);
    const whoami = (key: string): Load => ({
      url: `${airkey.url}/api/v1/whoami`,
      headers: { 'x-api-key': key },
      connections: s.connections,
      seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
    });
    const rounds = Math.max(s.rounds, SMALL_DIFFERENCE.rounds);
    s.log(`quotas on ${engine}: whoami under a generous quota vs an unlimited key`);
    const quota = await interleaved(whoami(metered!), whoami(open!), rounds, s.log, keyLoad);
    s.log(`quotas on ${engine}: whoami under a generous rate limit and quota vs an unlimited key`);
    const limited = await interleaved(whoami(both!), whoami(open!), rounds, s.log, keyLoad);
    return [
      {
        what: `11. quotas (${engine}): whoami, generous quota vs unlimited key req/s`,
        value: fmt(quota.rps),
        reference: fmt(quota.refRps),
        ratio: fmt(quota.ratio, 2),
        measured: { value: quota.rps, ratio: quota.ratio },
        target: atLeast(0.95),
        bad: quota.bad,
      },
      {
        what: `11. quotas (${engine}): whoami, rate limit and quota vs unlimited key req/s`,
        value: fmt(limited.rps),
        reference: fmt(limited.refRps),
        ratio: fmt(limited.ratio, 2),
        measured: { value: limited.rps, ratio: limited.ratio },
        target: atLeast(0.93),
        bad: limited.bad,
      },
    ];
  },
};
