/**
 * What the request log costs on the request path (docs/request-log.md): whoami and flights on a
 * server with the log on (the default) against one with it off (REQUEST_LOG_DAYS=0), in the same
 * interleaved rounds, on the same engine and database. Then the writer: the entries it wrote per
 * second of the on-server's load, what it still held after one flush interval, and what it
 * dropped (none, if it keeps up with the bench's whole load).
 */
import type { AirkeyReady } from './airkey-server.ts';
import { interleaved, SMALL_DIFFERENCE, type Load } from './measure.ts';
import { atLeast, atMost, exactly, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { keyLoad } from './wrk.ts';

const FLUSH_MS = 1_000;

async function writerFigures(server: AirkeyReady): Promise<{ written: number; pending: number; dropped: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    written: read('airkey_request_log_written_total'),
    pending: read('airkey_request_log_pending'),
    dropped: read('airkey_request_log_dropped_total'),
  };
}

export const requestLog: Scenario = {
  name: 'requestlog',
  title: '13. request log on vs off',
  engines: ['pglite', 'postgres'],
  alone: true,
  async run({ engine, airkey, settings: s }) {
    // Both flush as often, so only the log differs; one second keeps batches near the bench's rate.
    const on = (await airkey({ USAGE_FLUSH_MS: String(FLUSH_MS) })).info;
    const off = (await airkey({ USAGE_FLUSH_MS: String(FLUSH_MS), REQUEST_LOG_DAYS: '0' })).info;
    const rounds = Math.max(s.rounds, SMALL_DIFFERENCE.rounds);
    const seconds = Math.min(s.seconds, SMALL_DIFFERENCE.seconds);
    const loadOf = (server: AirkeyReady, path: string): Load => ({
      url: `${server.url}${path}`,
      headers: { 'x-api-key': server.key },
      connections: s.connections,
      seconds,
    });
    const rows: Row[] = [];
    let loadedMs = 0;
    for (const [name, path] of [
      ['whoami', '/api/v1/whoami'],
      ['flights limit=50', '/api/v1/flights?limit=50'],
    ] as const) {
      s.log(`request log on ${engine}: ${name} with the log on vs off`);
      const startedAt = performance.now();
      const pair = await interleaved(loadOf(on, path), loadOf(off, path), rounds, s.log, keyLoad);
      loadedMs += (performance.now() - startedAt) / 2;
      // SPEC's floors: whoami 0.90 of the log off on PostgreSQL, 0.75 on the embedded engine; flights 0.90.
      const floor = name === 'whoami' && engine === 'pglite' ? 0.75 : 0.9;
      rows.push({
        what: `13. request log (${engine}): ${name}, log on vs off req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        target: atLeast(floor),
        bad: pair.bad,
      });
      if (name !== 'whoami') continue;
      // The writes never hold the request thread: the tail with the log on stays near the tail without it.
      rows.push({
        what: `13. request log (${engine}): whoami p99 ms, log on vs off`,
        value: fmt(pair.p99, 2),
        reference: fmt(pair.refP99, 2),
        ratio: fmt(pair.p99Ratio, 2),
        measured: { value: pair.p99, ratio: pair.p99Ratio },
        target: atMost(1.3),
        bad: pair.bad,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 2 * FLUSH_MS));
    const writer = await writerFigures(on);
    s.log(`    writer: ${writer.written} written, ${writer.pending} pending, ${writer.dropped} dropped`);
    const perSecond = writer.written / (loadedMs / 1000);
    rows.push(
      {
        what: `13. request log (${engine}): entries written per second of the on-server's load`,
        value: fmt(perSecond),
        reference: '',
        ratio: '',
        measured: { value: perSecond, ratio: NaN },
        purpose: 'for information (about half the wall time loads the on-server)',
      },
      {
        what: `13. request log (${engine}): entries dropped or still held ${(2 * FLUSH_MS) / 1000} s after the load`,
        value: String(writer.dropped + writer.pending),
        reference: '',
        ratio: '',
        measured: { value: writer.dropped + writer.pending, ratio: NaN },
        target: exactly(0),
      },
    );
    return rows;
  },
};
