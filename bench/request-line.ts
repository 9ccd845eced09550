/**
 * What the one pino line per request costs end to end (docs/operations.md (Logs)): whoami on a
 * server at LOG_LEVEL=info, which writes the line to stdout (/dev/null, as the bench forks servers), against one
 * at warn, which writes none, in the same interleaved rounds. Both run without the request log, so
 * only the line differs.
 */
import { interleaved, SMALL_DIFFERENCE, type Load } from './measure.ts';
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
    const info = (await airkey({ REQUEST_LOG_DAYS: '0' })).info;
    const warn = (await airkey({ REQUEST_LOG_DAYS: '0', BENCH_LOG_LEVEL: 'warn' })).info;
    const loadOf = (server: AirkeyReady): Load => ({
      url: `${server.url}/api/v1/whoami`,
      headers: { 'x-api-key': server.key },
      connections: s.connections,
      seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
    });
    s.log('request line: whoami at info vs warn');
    const pair = await interleaved(
      loadOf(info),
      loadOf(warn),
      Math.max(s.rounds, SMALL_DIFFERENCE.rounds),
      s.log,
      keyLoad,
    );
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
