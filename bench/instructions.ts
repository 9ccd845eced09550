/**
 * Instructions per whoami request under each tracing configuration and for keys under a rate limit
 * or a quota,
 * counted by valgrind's callgrind: within a few percent for the same code and requests, where req/s
 * and CPU time on this machine move 10–30 % between adjacent rounds (on an otherwise idle machine: a
 * server slowed by other work counts more). Usage:
 *   npm run bench:instructions -- [--requests=3000] [--warmup=50000]
 *     [--only=off,none,tenth,all,limited,quota,both,refused] [--threads]
 * --threads also counts each thread apart (the request thread is the first; the export worker is
 * the one that appears with tracing on; the rest are V8's and libuv's helpers).
 * Two configurations run at a time, about four minutes a pair (a server runs ~50× slower under callgrind).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { AirkeyReady } from './airkey-server.ts';
import { AS_NPM_START, NPM_START_NODE_FLAGS, startServer } from './measure.ts';
import { otlpSink } from './otlp-sink.ts';
import { createBenchKeys } from './bench-keys.ts';
import { spend, type Limit } from './rate-limits.ts';
import { temporaryRunRoot } from './run-root.ts';

temporaryRunRoot();

const flag = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const requests = Number(flag('requests', '3000'));
const warmup = Number(flag('warmup', '50000'));
const byThread = process.argv.includes('--threads');
type Configuration = {
  what: string;
  sampler?: [string, string];
  limit?: Limit;
  quota?: { requests: number; period: 'day' | 'month' | 'total' };
  spent?: boolean;
};
const GENEROUS_QUOTA = { requests: 1_000_000_000, period: 'month' } as const;
const GENEROUS: Limit = { requests: 1_000_000_000, window: '1d' };
const CONFIGURATIONS = {
  off: { what: 'tracing off (no OTEL_* variables), unlimited key' },
  none: { what: 'SDK on, nothing sampled (traceidratio 0)', sampler: ['parentbased_traceidratio', '0'] },
  tenth: { what: 'SDK on, 10 % sampled (traceidratio 0.1)', sampler: ['parentbased_traceidratio', '0.1'] },
  all: { what: 'SDK on, every request sampled', sampler: ['parentbased_always_on', ''] },
  limited: { what: 'tracing off, a key under a generous limit (a billion a day)', limit: GENEROUS },
  quota: { what: 'tracing off, a key under a generous quota (a billion a month)', quota: GENEROUS_QUOTA },
  both: {
    what: 'tracing off, a key under a generous limit and a generous quota',
    limit: GENEROUS,
    quota: GENEROUS_QUOTA,
  },
  refused: {
    what: 'tracing off, a key over its limit (the 429 path)',
    limit: { requests: 1, window: '1d' },
    spent: true,
  },
} satisfies Record<string, Configuration>;
type Name = keyof typeof CONFIGURATIONS;
const wanted = flag('only', Object.keys(CONFIGURATIONS).join(',')).split(',') as Name[];
// TurboFan and Maglev still compile now and then after the warm-up, unevenly between runs.
const JIT_COMPILER = /compiler::|maglev|Maglev|turboshaft/;

type Count = { name: Name; perRequest: number; compilerPerRequest: number; threads?: number[] };

async function count(name: Name, sinkUrl: string, dir: string): Promise<Count> {
  const { sampler, limit, quota, spent }: Configuration = CONFIGURATIONS[name];
  const out = join(dir, `callgrind.${name}`);
  const { info: server, child } = await startServer<AirkeyReady>(
    './airkey-server.ts',
    {
      ...AS_NPM_START,
      ...(sampler && {
        OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
        OTEL_TRACES_SAMPLER: sampler[0],
        OTEL_TRACES_SAMPLER_ARG: sampler[1],
      }),
    },
    undefined,
    'server',
    {
      under: [
        'valgrind',
        '--tool=callgrind',
        '--instr-atstart=no',
        ...(byThread ? ['--separate-threads=yes'] : []),
        `--callgrind-out-file=${out}`,
        `--log-file=${out}.log`,
      ],
      // Under callgrind's slow clock V8's memory reducer takes the server for idle and runs full GCs.
      nodeFlags: [...NPM_START_NODE_FLAGS, '--no-memory-reducer'],
    },
  );
  const key =
    limit === undefined && quota === undefined
      ? server.key
      : (await createBenchKeys(server, [{ rate_limit: limit ?? null, quota: quota ?? null }]))[0]!;
  if (spent) await spend(server, key);
  const expected = spent ? 429 : 200;
  // One pool for both phases: sockets opened after the warm-up would deoptimise Node's socket code.
  const agent = new Agent({ connections: 4 });
  const send = async (amount: number) => {
    let sent = 0;
    const client = async () => {
      while (sent++ < amount) {
        const response = await request(`${server.url}/api/v1/whoami`, {
          dispatcher: agent,
          headers: { 'x-api-key': key },
        });
        await response.body.dump();
        if (response.statusCode !== expected) throw new Error(`whoami answered ${response.statusCode}`);
      }
    };
    await Promise.all([client(), client(), client(), client()]);
  };
  try {
    await send(warmup);
    execFileSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
    await send(requests);
    execFileSync('callgrind_control', ['--dump', String(child.pid)], { stdio: 'ignore' });
  } finally {
    await agent.close();
    child.kill('SIGKILL');
  }
  if (!byThread) return { name, ...tally(`${out}.1`) };
  const files = readdirSync(dir)
    .filter((file) => file.startsWith(`callgrind.${name}.1-`))
    .sort()
    .map((file) => join(dir, file));
  const counts = files.map(tally);
  return {
    name,
    perRequest: counts.reduce((sum, count) => sum + count.perRequest, 0),
    compilerPerRequest: counts.reduce((sum, count) => sum + count.compilerPerRequest, 0),
    threads: counts.map((count) => count.perRequest),
  };
}

/** Instructions per request in a callgrind dump, and the JIT compilers' share of them. */
function tally(file: string): Omit<Count, 'name'> {
  const listing = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  let total = 0;
  let compiler = 0;
  for (const line of listing.split('\n')) {
    const match = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S.*)$/.exec(line);
    if (!match || match[2]!.startsWith('PROGRAM TOTALS')) continue;
    const instructions = Number(match[1]!.replaceAll(',', ''));
    total += instructions;
    if (JIT_COMPILER.test(match[2]!)) compiler += instructions;
  }
  return { perRequest: (total - compiler) / requests, compilerPerRequest: compiler / requests };
}

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('valgrind is not installed here (Debian: apt-get install valgrind)');
  process.exit(1);
}
const sink = await otlpSink();
const dir = mkdtempSync(join(tmpdir(), 'airkey-instructions-'));
const counts: Count[] = [];
try {
  // Two at a time on two cores; a count does not depend on what else runs.
  for (let i = 0; i < wanted.length; i += 2)
    counts.push(...(await Promise.all(wanted.slice(i, i + 2).map((name) => count(name, sink.url, dir)))));
} finally {
  sink.close();
}
const off = counts.find((c) => c.name === 'off')?.perRequest;
console.log(`\nwhoami, Node ${process.version}, ${requests} requests after ${warmup} (JIT compilers apart)\n`);
console.log('| configuration | instructions per request | off ÷ this | JIT compilers per request |');
console.log('|---|---|---|---|');
for (const c of counts)
  console.log(
    `| ${CONFIGURATIONS[c.name].what} | ${Math.round(c.perRequest).toLocaleString('en')} | ${off ? (off / c.perRequest).toFixed(2) : '–'} | ${Math.round(c.compilerPerRequest).toLocaleString('en')} |`,
  );
if (byThread) {
  console.log('\n| configuration | instructions per request, by thread (JIT compilers apart; under 500 left out) |');
  console.log('|---|---|');
  for (const c of counts)
    console.log(
      `| ${CONFIGURATIONS[c.name].what} | ${c
        .threads!.filter((n) => n >= 500)
        .map((n) => Math.round(n).toLocaleString('en'))
        .join(' · ')} |`,
    );
}
