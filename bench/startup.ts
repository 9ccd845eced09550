/**
 * Start to first answer and resident memory of `airkey serve` on the embedded database, as
 * `npm start` runs it: the time from spawning the process to the first 200 from /readyz, and the
 * process's RSS then and after a burst of whoami-sized requests. The first start (migrations, the
 * demo tenant, a password hash) is measured apart from the starts that follow on the same data.
 *
 * Part of `npm run bench` (scenario `startup`); alone: node bench/startup.ts [--rounds=5] [--command="node bin/airkey"]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/free-port.ts';
import { atMost, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';

type Start = { ms: number; rssMb: number; rssAfterLoadMb: number; peakRssMb: number };

type Startup = {
  firstStartMs: number;
  startMs: number;
  startMsAll: number[];
  rssMb: number;
  rssAfterLoadMb: number;
  peakRssMb: number;
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `VmRSS` is the resident memory now, `VmHWM` its peak so far. */
const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return line ? Math.round(Number(line[1]) / 1024) : NaN;
};

async function startOnce(command: string[], dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), 'serve'], {
    cwd: ROOT,
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
    const atStart = statusMb(child.pid!, 'VmRSS');
    for (let index = 0; index < 2_000; index++) await fetch(`${url}/api/v1/openapi.json`).then((r) => r.arrayBuffer());
    return {
      ms,
      rssMb: atStart,
      rssAfterLoadMb: statusMb(child.pid!, 'VmRSS'),
      peakRssMb: statusMb(child.pid!, 'VmHWM'),
    };
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

/** The first start on an empty data folder, then `rounds` starts on the data it left. */
export async function measureStartup(command: string[], rounds: number): Promise<Startup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'airkey-startup-'));
  try {
    const first = await startOnce(command, dataDir);
    const later: Start[] = [];
    for (let round = 0; round < rounds; round++) later.push(await startOnce(command, dataDir));
    return {
      firstStartMs: Math.round(first.ms),
      startMs: Math.round(median(later.map((start) => start.ms))),
      startMsAll: later.map((start) => Math.round(start.ms)),
      rssMb: median(later.map((start) => start.rssMb)),
      rssAfterLoadMb: median(later.map((start) => start.rssAfterLoadMb)),
      peakRssMb: median(later.map((start) => start.peakRssMb)),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const AIRKEY = [process.execPath, 'bin/airkey'];

export const startupScenario: Scenario = {
  name: 'startup',
  title: '9. start to first answer (embedded database)',
  engines: ['pglite'],
  alone: true,
  async run({ settings }) {
    settings.log('9. airkey serve: start to the first 200 from /readyz, and resident memory');
    const result = await measureStartup(AIRKEY, Math.max(settings.rounds, 5));
    settings.log(`    starts (ms): ${result.startMsAll.join(', ')}; first start ${result.firstStartMs} ms`);
    const info = (what: string, value: number, unit: string): Row => ({
      what,
      value: `${value}${unit}`,
      reference: '',
      ratio: '',
      measured: { value, ratio: NaN },
      purpose: 'for information',
    });
    return [
      {
        what: '9. start to first answer, embedded database with data (ms)',
        value: String(result.startMs),
        reference: '1500 ms',
        ratio: '',
        measured: { value: result.startMs, ratio: NaN },
        target: atMost(1500, 'value', ' ms'),
      },
      info('9. first start on an empty data folder (migrations, demo tenant)', result.firstStartMs, ' ms'),
      info('9. resident memory at the first answer', result.rssMb, ' MB'),
      info('9. resident memory after 2,000 requests', result.rssAfterLoadMb, ' MB'),
      // PGlite's open passes through a peak of several hundred MB that it gives back within a second.
      info('9. peak resident memory (start and requests)', result.peakRssMb, ' MB'),
    ];
  },
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const option = (name: string, fallback: string) =>
    process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
  const command = option('command', AIRKEY.join(' ')).split(' ');
  console.log(JSON.stringify(await measureStartup(command, Number(option('rounds', '5'))), null, 2));
}
