import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// A process of its own: the request line's stdout is the real fd 1, and what is pending at exit
// must still arrive (pino flushes its destination when the process exits).
const SCRIPT = `
import { requestLineLogger } from './src/http/logging.ts';
const log = requestLineLogger({ level: 'info' });
const burst = (from) => { for (let i = from; i < from + 500; i++) log.info({ i, city: 'Zürich ✈ 東京', pad: 'x'.repeat(i % 97) }, 'request'); };
burst(0);
setImmediate(() => { burst(500); process.exit(0); });
`;

describe('the request line on stdout', () => {
  it('writes every line whole, in order, non-ASCII included, the last ones as the process exits', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: new URL('../../..', import.meta.url).pathname,
      maxBuffer: 64 * 1024 * 1024,
    });
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number; city: string; pad: string });
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(new Set(lines.map((line) => line.city))).toEqual(new Set(['Zürich ✈ 東京']));
    expect(lines.every((line) => line.pad.length === line.i % 97)).toBe(true);
  });
});
