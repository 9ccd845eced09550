/**
 * What the one pino line per request costs end to end (docs/operations.md (Logs)): whoami on a
 * server at LOG_LEVEL=info, which writes the line to stdout (/dev/null, as the bench forks servers), against one
 * at warn, which writes none, in the same interleaved rounds, over three sets of fresh processes. Both
 * run without the request log, so only the line differs.
 */
import { interleavedRounds, pairOf, PROCESS_SETS, SMALL_DIFFERENCE, type Load, type Sample } from './measure.ts';
import { atLeast, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { keyLoad } from './wrk.ts';
import type { AirkeyReady } from './airkey-server.ts';

export const requestLine: Scenario = {
  name: 'requestline',
  title: '14. the request line at info',
  engines: ['pglite'],
  alone: true,
  async run({ airkey, settings: s }) {
    const loadOf = (server: AirkeyReady): Load => ({
      url: `${server.url}/api/v1/whoami`,
      headers: { 'x-api-key': server.key },
      connections: s.connections,
      seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
    });
    // One pair of processes read 0.82 here, the next pair 0.71, with the same code.
    const info: Sample[] = [];
    const warn: Sample[] = [];
    const roundsPerSet = Math.ceil(Math.max(s.rounds, SMALL_DIFFERENCE.rounds) / PROCESS_SETS);
    for (let set = 1; set <= PROCESS_SETS; set++) {
      s.log(`request line: whoami at info vs warn (processes ${set} of ${PROCESS_SETS})`);
      const atInfo = await airkey({ REQUEST_LOG_DAYS: '0' });
      const atWarn = await airkey({ REQUEST_LOG_DAYS: '0', BENCH_LOG_LEVEL: 'warn' });
      try {
        const [a, b] = await interleavedRounds(
          [loadOf(atInfo.info), loadOf(atWarn.info)],
          roundsPerSet,
          s.log,
          keyLoad,
        );
        info.push(...a!);
        warn.push(...b!);
      } finally {
        await Promise.all([atInfo.stop(), atWarn.stop()]);
      }
    }
    const pair = pairOf(info, warn);
    const row: Row = {
      what: '14. whoami, the request line at info vs none (warn) req/s',
      value: fmt(pair.rps),
      reference: fmt(pair.refRps),
      ratio: fmt(pair.ratio, 2),
      measured: { value: pair.rps, ratio: pair.ratio },
      target: atLeast(0.95),
      bad: pair.bad,
    };
    return [row];
  },
};
