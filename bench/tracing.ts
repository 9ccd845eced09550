/**
 * What tracing costs on whoami (a cached key, the hot path): tracing off against the code before
 * its own request hooks (BENCH_TRACING_BASE, default BEFORE_REQUEST_SPANS, checked out from git into a
 * temporary directory), then tracing on at a 10 % ratio and at 100 % against tracing off, exporting
 * to an OTLP/HTTP sink on this machine. Every server runs with the request log off, which the base
 * does not have: its cost has rows of its own (13), and here it would hide what tracing costs.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AirkeyReady } from './airkey-server.ts';
import {
  AS_NPM_START,
  interleavedRounds,
  NPM_START_NODE_FLAGS,
  pairOf,
  PROCESS_SETS,
  SMALL_DIFFERENCE,
  startServer,
  type Sample,
  type Server,
} from './measure.ts';
import { atLeast, type Row } from './rows.ts';
import type { Scenario, Settings } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { otlpSink } from './otlp-sink.ts';
import { keyLoad } from './wrk.ts';

type Start = (env: Record<string, string | undefined>, file?: string) => Promise<Server<AirkeyReady>>;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Comparison = { what: string; subject: keyof Servers; reference: keyof Servers; minRatio?: number };
type Servers = { today: AirkeyReady; off: AirkeyReady; tenth: AirkeyReady; all: AirkeyReady };

async function tracingCost(s: Settings, start: Start): Promise<Row[]> {
  const base = checkout(process.env.BENCH_TRACING_BASE);
  const sink = await otlpSink();
  const otel = (sampler: string, arg: string) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: sampler,
    OTEL_TRACES_SAMPLER_ARG: arg,
  });
  const comparisons: Comparison[] = [
    {
      what: `7. whoami, tracing off vs the code before its request hooks (${base.rev.slice(0, 7)})`,
      subject: 'off',
      reference: 'today',
      minRatio: 0.98,
    },
    {
      what: '7. whoami, tracing on at 10 % (parentbased_traceidratio 0.1) vs off',
      subject: 'tenth',
      reference: 'off',
      minRatio: 0.95,
    },
    { what: '7. whoami, tracing on at 100 % vs off', subject: 'all', reference: 'off' },
  ];
  const whoami = (server: AirkeyReady) => ({
    url: `${server.url}/api/v1/whoami`,
    headers: { 'x-api-key': server.key },
    connections: s.connections,
    seconds: Math.min(s.seconds, SMALL_DIFFERENCE.seconds),
  });
  const roundsPerSet = Math.ceil(Math.max(s.rounds, SMALL_DIFFERENCE.rounds) / PROCESS_SETS);
  const samples = comparisons.map(() => ({ subject: [] as Sample[], reference: [] as Sample[] }));
  try {
    for (let set = 1; set <= PROCESS_SETS; set++) {
      const servers: Array<Server<AirkeyReady>> = [];
      const started = async (env: Record<string, string | undefined>, file?: string) => {
        const server = await start(env, file);
        servers.push(server);
        return server.info;
      };
      try {
        const running: Servers = {
          today: await started({}, pathToFileURL(join(base.dir, 'bench/airkey-server.ts')).href),
          off: await started({}),
          tenth: await started(otel('parentbased_traceidratio', '0.1')),
          all: await started(otel('parentbased_always_on', '')),
        };
        for (const [i, { what, subject, reference }] of comparisons.entries()) {
          s.log(`${what} (processes ${set} of ${PROCESS_SETS})`);
          const [a, b] = await interleavedRounds(
            [whoami(running[subject]), whoami(running[reference])],
            roundsPerSet,
            s.log,
            keyLoad,
          );
          samples[i]!.subject.push(...a!);
          samples[i]!.reference.push(...b!);
        }
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
    s.log(`    the OTLP sink received ${sink.requests()} exports, ${(sink.bytes() / 1024).toFixed(0)} KiB`);
    return comparisons.map(({ what, minRatio }, i): Row => {
      const pair = pairOf(samples[i]!.subject, samples[i]!.reference);
      return {
        what: `${what}: req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        ...(minRatio === undefined ? { purpose: 'for information' } : { target: atLeast(minRatio) }),
        bad: pair.bad,
      };
    });
  } finally {
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
        { ...AS_NPM_START, BENCH_FLIGHTS_NOW: '2026-11-22T12:00:00Z', REQUEST_LOG_DAYS: '0', ...env },
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
