/**
 * What tracing costs on whoami (a cached key, the hot path): tracing off against the code before
 * its own request hooks (BENCH_TRACING_BASE, default BEFORE_REQUEST_SPANS, checked out from git into a
 * temporary directory), then tracing on at a 10 % ratio and at 100 % against tracing off, exporting
 * to an OTLP/HTTP sink on this machine.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AirkeyReady } from './airkey-server.ts';
import {
  AS_NPM_START,
  interleaved,
  NPM_START_NODE_FLAGS,
  SMALL_DIFFERENCE,
  startServer,
  type Server,
} from './measure.ts';
import { atLeast, type Row } from './rows.ts';
import type { Scenario, Settings } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { otlpSink } from './otlp-sink.ts';
import { keyLoad } from './wrk.ts';

type Start = (env: Record<string, string | undefined>, file?: string) => Promise<Server<AirkeyReady>>;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function tracingCost(s: Settings, start: Start): Promise<Row[]> {
  const base = checkout(process.env.BENCH_TRACING_BASE);
  const sink = await otlpSink();
  const otel = (sampler: string, arg: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: sampler,
    OTEL_TRACES_SAMPLER_ARG: arg,
  });
  const servers: Array<Server<AirkeyReady>> = [];
  const started = async (env: Record<string, string | undefined>, file?: string) => {
    const server = await start(env, file);
    servers.push(server);
    return server.info;
  };
  try {
    const today = await started({}, pathToFileURL(join(base.dir, 'bench/airkey-server.ts')).href);
    const off = await started({});
    const tenth = await started(otel('parentbased_traceidratio', '0.1'));
    const all = await started(otel('parentbased_always_on', ''));
    const whoami = (server: AirkeyReady) => ({
      url: `${server.url}/api/v1/whoami`,
      headers: { 'x-api-key': server.key },
      connections: s.connections,
      seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
    });
    const rows: Row[] = [];
    const rounds = Math.max(s.rounds, SMALL_DIFFERENCE.rounds);
    const compare = async (what: string, subject: AirkeyReady, reference: AirkeyReady, minRatio?: number) => {
      s.log(what);
      const pair = await interleaved(whoami(subject), whoami(reference), rounds, s.log, keyLoad);
      rows.push({
        what: `${what}: req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        ...(minRatio === undefined ? { purpose: 'for information' } : { target: atLeast(minRatio) }),
        bad: pair.bad,
      });
    };
    await compare(
      `7. whoami, tracing off vs the code before its request hooks (${base.rev.slice(0, 7)})`,
      off,
      today,
      0.98,
    );
    await compare('7. whoami, tracing on at 10 % (parentbased_traceidratio 0.1) vs off', tenth, off, 0.9);
    await compare('7. whoami, tracing on at 100 % vs off', all, off);
    s.log(`    the OTLP sink received ${sink.requests()} exports, ${(sink.bytes() / 1024).toFixed(0)} KiB`);
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    sink.close();
  }
}

export const tracing: Scenario = {
  name: 'tracing',
  title: '7. whoami with tracing',
  engines: ['pglite'],
  alone: true,
  run: ({ settings }) =>
    tracingCost(settings, (env, file = './airkey-server.ts') =>
      startServer<AirkeyReady>(
        file,
        { ...AS_NPM_START, BENCH_FLIGHTS_NOW: '2026-11-22T12:00:00Z', ...env },
        undefined,
        'server',
        { nodeFlags: [...NPM_START_NODE_FLAGS] },
      ),
    ),
};

/**
 * The reference for tracing off: the code as it was with @fastify/otel, before its own request
 * hooks, the first commit whose sources Node runs without a compiler (older ones need tsx).
 */
const BEFORE_REQUEST_SPANS = '468de01';

/** The bench server and the sources it runs, as of `rev`, beside the shared node_modules. */
function checkout(rev = BEFORE_REQUEST_SPANS) {
  const dir = mkdtempSync(join(tmpdir(), 'airkey-bench-base-'));
  execSync(`git archive ${rev} src bench drizzle package.json tsconfig.json | tar -x -C ${dir}`, { cwd: ROOT });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  return { dir, rev };
}
