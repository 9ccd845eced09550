/**
 * Start to first answer and resident memory of `airkey serve` on the embedded database, as
 * `npm start` runs it: the time from spawning the process to the first 200 from /readyz, and the
 * process's RSS then and after a burst of whoami-sized requests. The first start (migrations, the
 * demo tenant, a password hash) is measured apart from the starts that follow on the same data.
 *
 *   node bench/startup.ts [--rounds=5] [--command="node bin/airkey"]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port.ts';

type Start = { ms: number; rssMb: number; rssAfterLoadMb: number };

const option = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const rounds = Number(option('rounds', '5'));
const [command, ...commandArgs] = option('command', `${process.execPath} bin/airkey`).split(' ');

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round(Number(line[1]) / 1024) : NaN;
};

async function startOnce(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command!, [...commandArgs, 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', MALLOC_ARENA_MAX: '2' },
    stdio: 'ignore',
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    for (;;) {
      const ready = await fetch(`${url}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) break;
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('no answer within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = performance.now() - started;
    const atStart = rssMb(child.pid!);
    for (let index = 0; index < 2_000; index++) await fetch(`${url}/api/v1/openapi.json`).then((r) => r.arrayBuffer());
    return { ms, rssMb: atStart, rssAfterLoadMb: rssMb(child.pid!) };
  } finally {
    await stop(child);
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDir = mkdtempSync(join(tmpdir(), 'airkey-startup-'));
try {
  const first = await startOnce(dataDir);
  const later: Start[] = [];
  for (let round = 0; round < rounds; round++) later.push(await startOnce(dataDir));
  const summary = {
    node: process.version,
    command: [command, ...commandArgs].join(' '),
    first_start_ms: Math.round(first.ms),
    start_ms_median: Math.round(median(later.map((start) => start.ms))),
    start_ms_all: later.map((start) => Math.round(start.ms)),
    rss_mb_at_first_answer: median(later.map((start) => start.rssMb)),
    rss_mb_after_2000_requests: median(later.map((start) => start.rssAfterLoadMb)),
  };
  console.log(JSON.stringify(summary, null, 2));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
