import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress } from '../support/instances.ts';
import { waitFor } from '../support/wait-for.ts';
import { startTracedServer, type TracedServer } from './trace-kit.ts';

/**
 * Each thread of `pid` by name, with its nice value (stat's 19th field, counted after the name). The
 * main thread is `main`: its name differs between Node lines (`MainThread`, `node-MainThread`).
 */
function niceByThread(pid: number): Map<string, number[]> {
  const threads = new Map<string, number[]>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const name = tid === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    threads.set(name, [...(threads.get(name) ?? []), nice]);
  }
  return threads;
}

// Linux gives each thread its own nice value; elsewhere the background threads keep the process's.
describe.skipIf(process.platform !== 'linux')('threads of a serving process', () => {
  let traced: TracedServer;
  beforeAll(async () => {
    traced = await startTracedServer();
  });
  afterAll(() => traced.stop());

  it('runs the request log’s writer below the request thread, and the span exporter beside it', async () => {
    const response = await fetch(`${traced.server.url}/api/v1/whoami`, {
      headers: { 'x-api-key': traced.key.secret, 'x-forwarded-for': clientAddress() },
    });
    expect(response.status).toBe(200);
    // The server inherits this runner's nice value (0 unless CI runs under `nice`). A thread has its
    // name from its start; the writer lowers itself once its module has loaded.
    const inherited = getPriority();
    const background = Math.max(inherited, 10);
    await waitFor(() => niceByThread(traced.server.pid).get('request-log')?.join() === String(background), {
      timeoutMs: 15_000,
      what: `the request log's writer thread at nice ${background}`,
    });
    const threads = niceByThread(traced.server.pid);
    expect(threads.get('main')).toEqual([inherited]);
    // Lowering it measured no faster (bench/RESULTS.md), so it keeps the process's priority.
    expect(threads.get('span-export')).toEqual([inherited]);
  });
});
