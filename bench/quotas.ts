/**
 * What a key's quota costs (docs/keys.md (Quotas)): whoami with a key under a generous monthly quota, and with a
 * generous rate limit and quota both, against an unlimited key on the same server in interleaved
 * rounds. A generous quota leases slices of 1/200 of it (5,000,000 here), so a request spends from
 * memory: no database write per request, which the store's row count after the run shows.
 *
 * A limited key's response is longer by contract: the two RateLimit fields and whoami's `limits`
 * (332 bytes more for both, 185 for a quota alone). The bare Fastify route sends the same output
 * against the same body without it, in the same rounds: that ratio is what the output costs
 * Fastify itself, and the median per-round quotient of airkey's ratio over it is what the meters
 * and airkey's own handling of the output cost (docs/performance.md, Quotas).
 */
import { createBenchKeys } from './bench-keys.ts';
import { interleavedRounds, median, pairOf, SMALL_DIFFERENCE, type Load, type Pair } from './measure.ts';
import { atLeast, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { keyLoad } from './wrk.ts';

const GENEROUS_QUOTA = { requests: 1_000_000_000, period: 'month' };
const GENEROUS_LIMIT = { requests: 1_000_000_000, window: '1h' };

export const quotas: Scenario = {
  name: 'quotas',
  title: '11. quotas',
  engines: ['pglite', 'postgres'],
  async run({ engine, subject, reference, settings: s }) {
    const airkey = await subject();
    const bare = await reference();
    const [metered, both, open] = await createBenchKeys(airkey, [
      { quota: GENEROUS_QUOTA },
      { quota: GENEROUS_QUOTA, rate_limit: GENEROUS_LIMIT },
      {},
    ]);
    const get = (url: string, key: string): Load => ({
      url,
      headers: { 'x-api-key': key },
      connections: s.connections,
      seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
    });
    const whoami = (key: string) => get(`${airkey.url}/api/v1/whoami`, key);
    const bareWhoami = (path: string) => get(`${bare}${path}`, open!);
    const rounds = Math.max(s.rounds, SMALL_DIFFERENCE.rounds);
    // The four loads of a comparison in the same rounds: the quotient is taken per round, from
    // runs seconds apart, so the machine's drift between two separate pair runs does not enter it.
    const compare = async (what: string, rawTarget: number, key: string, outputPath: string): Promise<Row[]> => {
      s.log(`quotas on ${engine}: whoami ${what} vs an unlimited key | the same output on the bare route vs none`);
      const [limited, unlimited, output, none] = await interleavedRounds(
        [whoami(key), whoami(open!), bareWhoami(outputPath), bareWhoami('/whoami-unlimited')],
        rounds,
        s.log,
        keyLoad,
      );
      const quotients = limited!.map(
        (sample, i) => sample.rps / unlimited![i]!.rps / (output![i]!.rps / none![i]!.rps),
      );
      return rows(engine, what, rawTarget, pairOf(limited!, unlimited!), pairOf(output!, none!), median(quotients));
    };
    return [
      ...(await compare('generous quota', 0.95, metered!, '/whoami-quota')),
      ...(await compare('rate limit and quota', 0.93, both!, '/whoami-limited')),
    ];
  },
};

/**
 * The ratio against an unlimited key (issue 35's target), the bare route's price of the same
 * output, and the quotient: what the meters and airkey's own handling cost, held to ≥ 0.97.
 */
function rows(engine: string, what: string, rawTarget: number, airkey: Pair, output: Pair, net: number): Row[] {
  return [
    {
      what: `11. quotas (${engine}): whoami, ${what} vs unlimited key req/s`,
      value: fmt(airkey.rps),
      reference: fmt(airkey.refRps),
      ratio: fmt(airkey.ratio, 2),
      measured: { value: airkey.rps, ratio: airkey.ratio },
      target: atLeast(rawTarget),
      bad: airkey.bad,
    },
    {
      what: `11. quotas (${engine}): bare Fastify, the same output (${what}) vs none req/s`,
      value: fmt(output.rps),
      reference: fmt(output.refRps),
      ratio: fmt(output.ratio, 2),
      measured: { value: output.rps, ratio: output.ratio },
      purpose: "what the contract's output costs Fastify itself",
      bad: output.bad,
    },
    {
      what: `11. quotas (${engine}): whoami, ${what}, net of the output's price on bare Fastify`,
      value: '',
      reference: '',
      ratio: fmt(net, 2),
      measured: { value: net, ratio: net },
      target: atLeast(0.97),
      bad: airkey.bad + output.bad,
    },
  ];
}
