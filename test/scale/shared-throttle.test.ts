import { spawn, spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { withKey } from '../support/keys.ts';
import {
  ADMIN,
  apiStatus,
  clientAddress,
  createKey,
  freePort,
  signIn,
  startInstance,
  takeTurn,
  TURN_TIMEOUT_MS,
  waitFor,
  type Instance,
} from '../support/instances.ts';

/**
 * Failed key attempts are counted per client across instances through Redis. Which Redis:
 * 1. a private `redis-server` on a free port when the binary is on PATH (then also killed, to
 *    show the outage);
 * 2. otherwise the one at 127.0.0.1:6379 when it answers (tests use client addresses of their own,
 *    so they never collide with its other data);
 * 3. otherwise none, and the suite fails: shared counting must be shown on a real Redis
 *    (.ci/run installs Debian's redis-server when it is missing).
 */

const WHOAMI = '/api/v1/whoami';
const POINTS = 20; // failures allowed per client per minute (services.ts)
const BAD_KEY = `ask_${'x'.repeat(64)}`;

type TestRedis = { url: string; how: string; stop?: () => Promise<void> };

async function findRedis(): Promise<TestRedis | undefined> {
  if (spawnSync('redis-server', ['--version']).status === 0) {
    const port = await freePort();
    const server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const url = `redis://127.0.0.1:${port}`;
    await waitFor(() => answers(url), { timeoutMs: 10_000, what: 'redis-server' });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    return {
      url,
      how: `private redis-server on port ${port}`,
      stop: async () => void (server.kill('SIGKILL'), await exited),
    };
  }
  if (await answers('redis://127.0.0.1:6379'))
    return { url: 'redis://127.0.0.1:6379', how: 'the Redis at 127.0.0.1:6379' };
  return undefined;
}

async function answers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** `count` failed attempts by `client` on `on`, each answered 401. */
async function fail(on: Instance, client: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < count; attempt++) expect(await apiStatus(on, BAD_KEY, WHOAMI, client)).toBe(401);
}

describe('failed-attempt throttling across two instances', () => {
  let redis: TestRedis | undefined;
  let a: Instance, b: Instance;
  let key: string;

  let release: () => Promise<void>;

  beforeAll(async () => {
    release = await takeTurn();
    redis = await findRedis();
    if (!redis)
      throw new Error(
        'No Redis to test shared throttling against: install redis-server (Debian: apt-get install redis-server).',
      );
    console.log(`throttle tests use ${redis.how}`);
    const redisUrl = redis.url;
    const databaseUrl = await freshPostgresUrl();
    [a, b] = await Promise.all([
      startInstance('A', databaseUrl, { REDIS_URL: redisUrl }),
      startInstance('B', databaseUrl, { REDIS_URL: redisUrl }),
    ]);
    key = (await createKey(await signIn(a, ADMIN.email), a)).secret;
  }, TURN_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop?.();
    await release?.();
  });

  /** Without a shared store each instance counts its own failures; valid keys are never blocked. */
  async function expectPerInstanceCounting(): Promise<void> {
    const client = clientAddress();
    // "Keeps working" holds for a key the instance has cached: a blocked client's cache misses are
    // refused before any database work.
    for (const instance of [a, b]) expect(await apiStatus(instance, key, WHOAMI, client)).toBe(200);
    await fail(a, client, POINTS);
    await fail(b, client, POINTS);
    expect(await apiStatus(b, BAD_KEY, WHOAMI, client)).toBe(429); // B's own limit reached: blocked from now on
    expect(await apiStatus(a, key, WHOAMI, client)).toBe(200);
    expect(await apiStatus(b, key, WHOAMI, client)).toBe(200);
  }

  it(`blocks a client on B after ${POINTS} failures spread over A and B, while its valid key keeps working`, async () => {
    const client = clientAddress();
    for (const instance of [a, b]) expect(await apiStatus(instance, key, WHOAMI, client)).toBe(200);
    await fail(a, client, POINTS / 2);
    await fail(b, client, POINTS / 2);
    const request = withKey(BAD_KEY, `${b.url}${WHOAMI}`, 'header', { 'x-forwarded-for': client });
    const blocked = await fetch(request.url, { headers: request.headers });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await apiStatus(a, BAD_KEY, WHOAMI, client)).toBe(429);
    // Another client is not affected, and the blocked client's valid key still works.
    expect(await apiStatus(b, BAD_KEY, WHOAMI, clientAddress())).toBe(401);
    for (const instance of [a, b]) expect(await apiStatus(instance, key, WHOAMI, client)).toBe(200);
  });

  it('falls back to per-instance counting when Redis is unreachable, and never blocks a valid key', async () => {
    if (redis && !redis.stop) {
      // Not ours to stop: two more instances with an unreachable Redis show the same fallback.
      const databaseUrl = await freshPostgresUrl();
      const unreachable = `redis://127.0.0.1:${await freePort()}`;
      const pair = await Promise.all([
        startInstance('A2', databaseUrl, { REDIS_URL: unreachable }),
        startInstance('B2', databaseUrl, { REDIS_URL: unreachable }),
      ]);
      const [oldA, oldB, oldKey] = [a, b, key];
      try {
        [a, b] = pair;
        key = (await createKey(await signIn(a, ADMIN.email), a)).secret;
        return await expectPerInstanceCounting();
      } finally {
        [a, b, key] = [oldA, oldB, oldKey];
        await Promise.all(pair.map((instance) => instance.stop()));
      }
    }
    await redis?.stop?.();
    // A key neither instance has cached: its check reads the database, with the store gone.
    key = (await createKey(await signIn(a, ADMIN.email), a)).secret;
    await expectPerInstanceCounting();
  });
});
