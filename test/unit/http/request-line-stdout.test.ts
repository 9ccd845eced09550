import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

// A process of its own: stdout is the real fd 1, and what is pending at exit must still arrive. One
// line in ten goes through the background logger: both share stdout, and their order must hold too.
const SCRIPT = `
import { requestLineLogger } from './src/http/logging.ts';
import { backgroundLogger } from './src/app/logger.ts';
const lines = requestLineLogger({ level: 'info' });
const background = backgroundLogger({ level: 'info' });
const burst = (from) => {
  for (let i = from; i < from + 500; i++)
    (i % 10 ? lines : background).info({ i, city: 'Zürich ✈ 东京', pad: 'x'.repeat(i % 97) }, 'request');
};
burst(0);
setImmediate(() => { burst(500); process.exit(0); });
`;

/** Runs the script with a reader that lags: the pipe fills, and writes are still under way at exit. */
async function run(): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: new URL('../../..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.pause();
  await sleep(100);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk)).resume();
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  return Buffer.concat(chunks).toString('utf8');
}

describe('the request line on stdout', () => {
  it('writes every line whole, in order, non-ASCII included, the last ones as the process exits', async () => {
    // Four at once: the exit's race with a write under way showed in one run in four.
    for (const stdout of await Promise.all([run(), run(), run(), run()])) {
      const lines = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { i: number; city: string; pad: string });
      expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      expect(new Set(lines.map((line) => line.city))).toEqual(new Set(['Zürich ✈ 东京']));
      expect(lines.every((line) => line.pad.length === line.i % 97)).toBe(true);
    }
  });
});
