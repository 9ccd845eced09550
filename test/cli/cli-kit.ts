import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Run = { code: number | null; stdout: string; stderr: string };

/** `node bin/airkey …` as a user would run it, with the storage given by environment only. */
export function airkey(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/airkey', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', REDIS_URL: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** A failure as docs/cli.md wants it: non-zero exit, one line of reason on stderr. */
export function expectOneLineFailure(run: Run, reason?: RegExp) {
  expect(run.code, run.stdout + run.stderr).not.toBe(0);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^airkey: \S/);
  expect(run.stderr).not.toMatch(/\n\s+at\s/);
  if (reason) expect(lines[0]).toMatch(reason);
}

export async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size)
    results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  return results;
}
