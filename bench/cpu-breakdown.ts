/**
 * Where a whoami's CPU goes, per request, for several tracing configurations side by side: each
 * server's threads apart (`/proc/<pid>/task`), or with `--profile` the request thread's time by
 * function and by file from a V8 CPU profile, counted only inside the loads and each configuration
 * shown as its difference from the first. Rounds alternate between fresh servers, in sets.
 *
 * A configuration is `off` or a sampling ratio (`0`, `0.01`, `1`: parentbased_traceidratio, spans
 * to an OTLP sink in this process), optionally `+log` for the request log on (flushed every second;
 * off otherwise), optionally `@<checkout>` to run another copy of the code. On PostgreSQL
 * (`--engine=postgres`) each server gets a database of its own, and the CPU of that database's
 * backends counts as the server's ("postgres backends").
 * `--path` loads another route with the same key (flights: `/api/v1/flights?limit=50`).
 * Usage: node bench/cpu-breakdown.ts [--profile] [--engine=pglite] [--path=/api/v1/whoami] [--sets=3] [--rounds=6] [--seconds=3] off 0.1 1
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AirkeyReady } from './airkey-server.ts';
import { AS_NPM_START, median, NPM_START_NODE_FLAGS, startServer, type Server } from './measure.ts';
import { otlpSink } from './otlp-sink.ts';
import { throwawayPostgres } from './postgres.ts';
import { backendCpuMs } from './postgres-cpu.ts';
import { hasWrk, wrkLoad } from './wrk.ts';
import { temporaryRunRoot } from './run-root.ts';

temporaryRunRoot();

const { values: options, positionals: configs } = parseArgs({
  allowPositionals: true,
  options: {
    profile: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'pglite' },
    path: { type: 'string', default: '/api/v1/whoami' },
    sets: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '3' },
  },
});
if (!hasWrk) throw new Error('bench/cpu-breakdown.ts loads with wrk (Debian package wrk)');
if (configs.length === 0) throw new Error('name at least one configuration: off, or a sampling ratio');
const sets = Number(options.sets);
const rounds = Number(options.rounds);
const seconds = Number(options.seconds);
// A profile's first and last 0.2 s of each load are ramps, not load.
const EDGE_US = 200_000;

const sink = await otlpSink();

function envOf(config: string): Record<string, string> {
  const [setting = '', log] = config.split('@')[0]!.split('+');
  return { REQUEST_LOG_DAYS: log === 'log' ? '30' : '0', USAGE_FLUSH_MS: '1000', ...tracingEnvOf(setting) };
}

function tracingEnvOf(setting: string): Record<string, string> {
  if (setting === 'off') return {};
  const ratio = Number(setting);
  if (!(ratio >= 0 && ratio <= 1)) throw new Error(`"${setting}" is neither off nor a ratio from 0 to 1`);
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: String(ratio),
  };
}

/** CPU ms so far of each of a process's threads, grouped: the request thread, V8's helpers, others by name. */
function threadCpuMs(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const group = tid === String(pid) ? 'request thread' : /^(V8|node)/.test(name) ? "V8's helpers" : name;
    byThread.set(group, (byThread.get(group) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return byThread;
}

/** The request thread's scheduler counters so far (`/proc/<pid>/task/<pid>/sched`). */
const SCHED_FIELDS = ['se.nr_migrations', 'nr_voluntary_switches', 'nr_involuntary_switches'] as const;
function schedCounts(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/sched`, 'utf8');
  return SCHED_FIELDS.map((field) =>
    Number(new RegExp(`^${field.replace('.', '\\.')}\\s+:\\s+(\\d+)`, 'm').exec(text)?.[1]),
  );
}

type Tally = {
  rps: number[];
  sched: number[][];
  p99: number[];
  requests: number;
  threads: Map<string, number[]>;
  functions: Map<string, number>;
  files: Map<string, number>;
};
type Running = {
  server: Server<AirkeyReady>;
  profileDir?: string;
  loads: Array<[number, number]>;
  database?: { url: string; drop(): Promise<void> };
};
const tallies = new Map<string, Tally>(
  configs.map((config) => [
    config,
    { rps: [], sched: [], p99: [], requests: 0, threads: new Map(), functions: new Map(), files: new Map() },
  ]),
);
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const append = (series: Map<string, number[]>, key: string, value: number) => {
  const values = series.get(key);
  if (values) values.push(value);
  else series.set(key, [value]);
};

for (let set = 1; set <= sets; set++) {
  const running = new Map<string, Running>();
  for (const config of configs) {
    const checkout = config.split('@')[1];
    const profileDir = options.profile ? mkdtempSync(join(tmpdir(), 'airkey-profile-')) : undefined;
    const profileFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200'] : [];
    const database = options.engine === 'postgres' ? await throwawayPostgres(undefined) : undefined;
    if (options.engine === 'postgres' && !database) throw new Error('no PostgreSQL at 127.0.0.1:5432');
    const engineEnv = database ? { BENCH_ENGINE: 'postgres', BENCH_DATABASE_URL: database.url } : {};
    const server = await startServer<AirkeyReady>(
      checkout ? join(checkout, 'bench/airkey-server.ts') : './airkey-server.ts',
      { ...AS_NPM_START, BENCH_FLIGHTS_NOW: '2026-11-22T12:00:00Z', ...engineEnv, ...envOf(config) },
      undefined,
      'server',
      { nodeFlags: [...NPM_START_NODE_FLAGS, ...profileFlags] },
    );
    running.set(config, { server, profileDir, loads: [], ...(database ? { database } : {}) });
  }
  const loadOf = ({ server }: Running) => ({
    url: `${server.info.url}${options.path}`,
    connections: 50,
    seconds,
    keys: [server.info.key],
  });
  for (const each of running.values()) await wrkLoad(loadOf(each)); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const config of round % 2 ? [...configs].reverse() : configs) {
      const each = running.get(config)!;
      const tally = tallies.get(config)!;
      const before = await cpuMs(each);
      const schedBefore = schedCounts(each.server.child.pid!);
      const started = nowUs();
      const sample = await wrkLoad(loadOf(each));
      each.loads.push([started + EDGE_US, nowUs() - EDGE_US]);
      const after = await cpuMs(each);
      const schedAfter = schedCounts(each.server.child.pid!);
      tally.sched.push(schedAfter.map((count, i) => ((count - schedBefore[i]!) * 1000) / sample.requests));
      tally.rps.push(sample.rps);
      tally.p99.push(sample.p99);
      tally.requests += options.profile ? sample.requests * (1 - (2 * EDGE_US) / 1e6 / seconds) : sample.requests;
      let all = 0;
      for (const [group, ms] of after) {
        const us = ((ms - (before.get(group) ?? 0)) * 1000) / sample.requests;
        all += us;
        append(tally.threads, group, us);
      }
      append(tally.threads, 'all threads', all);
    }
  }
  // Each process keeps its own speed for its life (docs/performance.md): show the spread.
  const thisSet = configs.map((config) => {
    const requestThread = tallies.get(config)!.threads.get('request thread')!.slice(-rounds);
    return `${config} ${median(requestThread).toFixed(1)}`;
  });
  console.log(`set ${set}, request thread µs a request: ${thisSet.join(' · ')}`);
  // A writer that falls behind drops entries (counted) rather than slow requests: say so.
  const drops = await Promise.all(
    [...running].map(async ([config, { server }]) => `${config} ${await droppedEntries(server.info.url)}`),
  );
  console.log(`set ${set}, request log entries dropped: ${drops.join(' · ')}`);
  for (const [config, each] of running) {
    await each.server.stop();
    await each.database?.drop();
    if (each.profileDir) readProfile(each, tallies.get(config)!);
  }
}
sink.close();

/** The server's threads and, on PostgreSQL, its database's backends. */
async function cpuMs(each: Running): Promise<Map<string, number>> {
  const threads = threadCpuMs(each.server.child.pid!);
  if (each.database) threads.set('postgres backends', await backendCpuMs(each.database.url));
  return threads;
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };

/** Adds the request thread's sampled time inside the loads, by function and by file. */
function readProfile({ profileDir, loads }: Running, tally: Tally): void {
  // The request thread's profile: a worker thread writes its own, named with its thread id.
  const file = readdirSync(profileDir!).find((name) => /\.0\.\d+\.cpuprofile$/.test(name));
  if (!file) throw new Error(`no CPU profile in ${profileDir}: did the server exit cleanly?`);
  const profile = JSON.parse(readFileSync(join(profileDir!, file), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
  };
  rmSync(profileDir!, { recursive: true, force: true });
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  // V8's profile clock and process.hrtime are both the monotonic clock.
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)' || !loads.some(([from, to]) => at >= from && at <= to)) return;
    const path = url.replace(/^file:\/\//, '');
    const where = path.includes('node_modules/')
      ? path.replace(/.*node_modules\//, '~/')
      : path.replace(/^.*?\/(src|bench)\//, '$1/');
    const fn = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    const packageOrFile = where.startsWith('~/')
      ? where
          .split('/')
          .slice(0, where.startsWith('~/@') ? 3 : 2)
          .join('/')
      : where || functionName;
    tally.functions.set(fn, (tally.functions.get(fn) ?? 0) + delta);
    tally.files.set(packageOrFile, (tally.files.get(packageOrFile) ?? 0) + delta);
    tally.functions.set('(all, sampled)', (tally.functions.get('(all, sampled)') ?? 0) + delta);
  });
}

const first = tallies.get(configs[0]!)!;
const fixed = (value: number, digits = 1) => value.toFixed(digits);
console.log(`\n${sets} sets × ${rounds} rounds × ${seconds} s, wrk -c50, medians of rounds; µs of CPU per request`);
const groups = [...new Set(configs.flatMap((config) => [...tallies.get(config)!.threads.keys()]))];
console.log(
  [
    'configuration',
    'req/s',
    'ratio to first',
    'p99 ms',
    'p99 ratio to first',
    ...groups,
    'CPU ratio to first',
    'Δ request thread (paired)',
    'Δ all (paired)',
  ].join(' | '),
);
// The machine's speed drifts over a run; only quotients of rounds run next to each other compare.
const pairedRatio = (values: number[], firsts: number[]) =>
  median(values.map((value, round) => value / firsts[round]!));
// With one entry per whoami, the difference from a log-off first configuration is the CPU an entry costs.
const pairedDifference = (values: number[], firsts: number[]) =>
  median(values.map((value, round) => value - firsts[round]!));
for (const config of configs) {
  const tally = tallies.get(config)!;
  const cells = groups.map((group) => fixed(median(tally.threads.get(group) ?? [0])));
  const cpuRatio = pairedRatio(tally.threads.get('all threads')!, first.threads.get('all threads')!);
  console.log(
    [
      config,
      fixed(median(tally.rps), 0),
      fixed(pairedRatio(tally.rps, first.rps), 3),
      fixed(median(tally.p99), 2),
      fixed(pairedRatio(tally.p99, first.p99), 2),
      ...cells,
      fixed(cpuRatio, 3),
      fixed(pairedDifference(tally.threads.get('request thread')!, first.threads.get('request thread')!), 2),
      fixed(pairedDifference(tally.threads.get('all threads')!, first.threads.get('all threads')!), 2),
    ].join(' | '),
  );
}
// Moved between CPUs or taken off one, a thread comes back to colder caches.
console.log(`\nthe request thread's scheduling, per 1,000 requests (medians of rounds)`);
console.log(['configuration', 'CPU migrations', 'voluntary switches', 'involuntary switches'].join(' | '));
for (const config of configs) {
  const { sched } = tallies.get(config)!;
  const cells = SCHED_FIELDS.map((_, i) => fixed(median(sched.map((round) => round[i]!)), 2));
  console.log([config, ...cells].join(' | '));
}
if (options.profile) {
  const perRequest = (tally: Tally, table: Map<string, number>, key: string) => (table.get(key) ?? 0) / tally.requests;
  for (const config of configs.slice(1)) {
    const tally = tallies.get(config)!;
    for (const [title, of] of [
      ['package or file', (t: Tally) => t.files],
      ['function', (t: Tally) => t.functions],
    ] as const) {
      const keys = new Set([...of(first).keys(), ...of(tally).keys()]);
      const rows = [...keys]
        .map((key) => ({ key, was: perRequest(first, of(first), key), now: perRequest(tally, of(tally), key) }))
        .sort((a, b) => Math.abs(b.now - b.was) - Math.abs(a.now - a.was))
        .slice(0, title === 'function' ? 30 : 15);
      console.log(
        `\n${config} against ${configs[0]}, the request thread by ${title}: µs per request (difference, ${configs[0]})`,
      );
      for (const { key, was, now } of rows)
        console.log(`${fixed(now - was, 3).padStart(8)} ${fixed(was, 3).padStart(8)}  ${key}`);
    }
  }
}

/** The server's `airkey_request_log_dropped_total`, or "-" when it exports none (an older checkout). */
async function droppedEntries(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return /^airkey_request_log_dropped_total (\d+)/m.exec(text)?.[1] ?? '-';
}
