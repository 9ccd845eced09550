/** Bench plumbing: child servers, autocannon runs, medians and percentiles. */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';

export type Sample = { rps: number; p50: number; p99: number; non2xx: number; errors: number; requests: number };

export type Server<T> = { info: T; child: ChildProcess; stop(): Promise<void> };

/** What a load's answers should be: 2xx (a valid key), or refusals (guessed keys: a 2xx is wrong). */
export type Expect = '2xx' | 'refusal';

/**
 * Every answer of every load in this run, warm-ups and controls included, and how many were not
 * what their load expected: `load`, `loadElsewhere`, `timed` and `wrkLoad` count here themselves,
 * so no scenario can leave a load out. A request with no answer (an error, a timeout) is wrong
 * when 2xx was expected.
 */
export const responses = { answered: 0, wrong: 0 };

export function tally(sample: Pick<Sample, 'requests' | 'non2xx' | 'errors'>, expect: Expect = '2xx', url = ''): void {
  const wrong = expect === '2xx' ? sample.non2xx + sample.errors : sample.requests - sample.non2xx;
  responses.answered += sample.requests;
  responses.wrong += wrong;
  // Which load, so a failed run says where to look.
  if (wrong > 0)
    console.error(
      `    ${wrong} answers were not ${expect} from ${url || 'a load'}: ${sample.non2xx} non-2xx, ${sample.errors} errors or timeouts of ${sample.requests}`,
    );
}

/** airkey's bench servers run as `npm start` runs the server: glibc's malloc capped at two arenas (README, Operations). */
export const AS_NPM_START = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };

/**
 * The V8 flags `npm start` gives the server (package.json's `config.serve_node_flags`): a young
 * generation and an old-generation growth that keep its memory near what it holds (docs/performance.md, Memory).
 */
export const NPM_START_NODE_FLAGS: readonly string[] = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    config: { serve_node_flags: string };
  }
).config.serve_node_flags.split(/\s+/);

/**
 * BENCH_PIN=1: the bench and its load children on core 0, every server on the others (needs
 * `taskset` and two cores). The client and the server then stop taking CPU from each other, which
 * steadied whoami (0.97-0.99 of the bare route in two full runs), but a server confined to one core
 * also shares it with its own helper threads: PGlite key creation went from 10-15 to 21-23 ms p95,
 * and PostgreSQL's processes (not ours to pin) crowd one of the two cores. Off by default.
 */
export const pinning = (() => {
  if (process.env.BENCH_PIN !== '1' || cpus().length < 2) return undefined;
  try {
    execFileSync('taskset', ['-a', '-pc', '0', String(process.pid)], { stdio: 'ignore' }); // every thread of this process
  } catch {
    return undefined; // no taskset here: unpinned
  }
  return { load: '0', servers: `1-${cpus().length - 1}` };
})();

/** CPU time (user + system) a process has used so far, in ms: /proc/<pid>/stat counts clock ticks of 10 ms. */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Forks a bench server (stdout discarded: the request log goes nowhere, at the same cost), or a
 * load child (`role: 'load'`, never pinned to the servers' cores).
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of every server to that folder (bench/cpu-summary.ts reads it).
 * `under` runs the server under another program (valgrind and its options), `nodeFlags` go to Node.
 */
export async function startServer<T>(
  file: string,
  env: Record<string, string | undefined> = {},
  message?: unknown,
  role: 'server' | 'load' = 'server',
  { under = [], nodeFlags = [] }: { under?: string[]; nodeFlags?: string[] } = {},
): Promise<Server<T>> {
  const nodeArgs = [
    ...nodeFlags,
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
  ];
  // A server starts under taskset, so every thread it ever has runs on the servers' cores; a load
  // child inherits core 0 from this process.
  const launcher = [...(pinning && role === 'server' ? ['taskset', '-c', pinning.servers] : []), ...under];
  const pinned = launcher.length
    ? { execPath: launcher[0], execArgv: [...launcher.slice(1), process.execPath, ...nodeArgs] }
    : { execArgv: nodeArgs };
  const child = fork(new URL(file, import.meta.url), [], {
    ...pinned,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  if (message !== undefined) child.send(message as object);
  const info = await new Promise<T>((resolve, reject) => {
    child.once('message', (reply) => resolve(reply as T));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return {
    info,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export type Load = {
  url: string;
  connections: number;
  seconds?: number;
  amount?: number;
  headers?: Record<string, string>;
  /** A fresh header set per request (never-seen keys); builds each request, so the client costs more. */
  headersFor?: () => Record<string, string>;
  /** Header sets each connection cycles through: built once, as cheap for the client as fixed headers. */
  headerSets?: Array<Record<string, string>>;
  /** Default 2xx. */
  expect?: Expect;
};

export async function load(spec: Load): Promise<Sample> {
  const options: autocannon.Options = {
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds ?? 5 }),
    headers: spec.headers ?? {},
  };
  if (spec.headerSets) options.requests = spec.headerSets.map((headers) => ({ headers }));
  if (spec.headersFor)
    options.requests = [{ setupRequest: (request) => ({ ...request, headers: spec.headersFor!() }) }];
  const result = await autocannon(options);
  const sample = {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    requests: result.requests.total,
  };
  tally(sample, spec.expect, spec.url);
  return sample;
}

/** `load` in a child process (serialisable specs only: no `headersFor`); resolves once it is ready to go. */
export async function loadElsewhere(spec: Omit<Load, 'headersFor'>): Promise<() => Promise<Sample>> {
  const child = await startServer<string>('./load-child.ts', {}, spec, 'load');
  return () => {
    const done = new Promise<Sample>((resolve) =>
      child.child.once('message', (sample: Sample) => {
        tally(sample, spec.expect, spec.url); // counted in the child too, but that count dies with it
        resolve(sample);
      }),
    );
    child.child.send('go');
    return done;
  };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

/** Medians of each side, and the medians of the per-round ratios (a round's two runs are adjacent in time, so drift cancels). */
export type Pair = {
  subject: Sample;
  reference: Sample;
  rps: number;
  p99: number;
  refRps: number;
  refP99: number;
  ratio: number;
  p99Ratio: number;
  bad: number;
};

/**
 * Rounds for a comparison whose two sides differ by a few percent (rate limits, allowlists, quotas,
 * tracing): many short ones rather than a few long ones. On a shared machine whose speed moves
 * within seconds, a pair run close together in time differs less, and a median of 21 ratios
 * holds still where one of 7 moved by ±10 % between runs (per-round ratios 0.58–1.35).
 */
export const SMALL_DIFFERENCE = { rounds: 21, seconds: 2 };

/**
 * Fresh servers for each share of a small difference's rounds (rows 7 and 14). A server process
 * keeps its speed for its lifetime (the code V8 settled on, where its threads landed): one pair of
 * processes read 0.79 at 10 % over 21 rounds, every round within 0.75–0.85, and the next run of the
 * same code 1.21. Rounds spread over several sets of processes take that luck into the median
 * instead of making it the result.
 */
export const PROCESS_SETS = 3;

/**
 * Runs a load until its throughput settles (airkey has far more code for the JIT to optimise than
 * the bare route: its first seconds ran at half speed), at most 7 × 2 s.
 */
async function warmUp(spec: Load, run: (spec: Load) => Promise<Sample>): Promise<void> {
  let previous = (await run({ ...spec, seconds: 2 })).rps;
  for (let i = 0; i < 6; i++) {
    const current = (await run({ ...spec, seconds: 2 })).rps;
    if (Math.abs(current - previous) / Math.max(current, previous, 1) < 0.07) return;
    previous = current;
  }
}

/**
 * Interleaved rounds of several loads, each warmed up first, the order reversed every other round
 * so drift falls on all of them equally. Each load's samples, round by round.
 */
export async function interleavedRounds(
  loads: Load[],
  rounds: number,
  log: (line: string) => void,
  run: (spec: Load) => Promise<Sample> = load,
): Promise<Sample[][]> {
  for (const spec of loads) await warmUp(spec, run);
  const samples = loads.map((): Sample[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [...loads.keys()] : [...loads.keys()].reverse();
    for (const i of order) samples[i]!.push(await run(loads[i]!));
    const cells = samples.map((each) => `${each.at(-1)!.rps.toFixed(0)} req/s p99 ${each.at(-1)!.p99} ms`);
    log(`    round ${round + 1}: ${cells.join(' | ')}`);
  }
  return samples;
}

/** A subject's and its reference's samples, taken in the same rounds, as a `Pair`. `bad` counts non-2xx and errors on both sides. */
export function pairOf(a: Sample[], b: Sample[]): Pair {
  const bad = [...a, ...b].reduce((n, s) => n + s.non2xx + s.errors, 0);
  return {
    subject: a.at(-1)!,
    reference: b.at(-1)!,
    rps: median(a.map((s) => s.rps)),
    p99: median(a.map((s) => s.p99)),
    refRps: median(b.map((s) => s.rps)),
    refP99: median(b.map((s) => s.p99)),
    ratio: median(a.map((s, i) => s.rps / b[i]!.rps)),
    p99Ratio: median(a.map((s, i) => s.p99 / Math.max(b[i]!.p99, 1))),
    bad,
  };
}

/** Interleaved rounds of the subject and its reference. */
export async function interleaved(
  subject: Load,
  reference: Load,
  rounds: number,
  log: (line: string) => void,
  run: (spec: Load) => Promise<Sample> = load,
): Promise<Pair> {
  const [a, b] = await interleavedRounds([subject, reference], rounds, log, run);
  return pairOf(a!, b!);
}
