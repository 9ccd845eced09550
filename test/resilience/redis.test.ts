import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateSecret } from '../../src/keys/format/secret.ts';
import { createHarness, type Harness } from '../support/harness.ts';
import { apiFrom, expectProblem } from '../support/problems.ts';
import { switchableProxy } from '../support/switchable-proxy.ts';
import { waitFor } from '../support/instances.ts';

/**
 * Redis: with REDIS_URL set, two instances count a client's failed key attempts
 * together; when Redis goes away each falls back to counting in memory without blocking a valid
 * key, and shared counting resumes when Redis returns. Redis sits behind a relay the test can
 * switch off, so the shared test Redis itself is never stopped.
 */
const WHOAMI = '/api/v1/whoami';
const POINTS = 20; // failed key attempts a client may make per minute (README)

describe('throttling through Redis on two instances', () => {
  let proxy: Awaited<ReturnType<typeof switchableProxy>>;
  let a: Harness;
  let b: Harness;
  let valid: string;
  // Client addresses of this run: the Redis may be shared with other runs.
  const run = randomBytes(2);
  let next = 0;
  const newClient = () => `10.${run[0]}.${run[1]}.${++next}`;

  beforeAll(async () => {
    const url = inject('redisUrl');
    if (!url) throw new Error(inject('redisProblem'));
    proxy = await switchableProxy(url);
    a = await createHarness({ engine: 'postgres', config: { redisUrl: proxy.url, logLevel: 'warn' } });
    b = await createHarness({ config: { databaseUrl: a.config.databaseUrl, redisUrl: proxy.url, logLevel: 'warn' } });
    valid = (await a.createKey(await a.signedIn(), { name: 'valid' })).secret;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await proxy?.close();
  });

  /** `count` wrong keys from `client` on `on`, each answered 401. */
  async function fail(on: Harness, client: string, count: number) {
    const statuses = [];
    for (let i = 0; i < count; i++) statuses.push((await apiFrom(on, client, generateSecret(), WHOAMI)).statusCode);
    expect(statuses).toEqual(Array(count).fill(401));
  }

  /** A's count of failed Redis connection attempts, from /metrics (a failure is never silent). */
  async function redisFailures(): Promise<number> {
    const text = (await a.app.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text
      .split('\n')
      .find((row) => row.startsWith('airkey_background_failures_total{task="redis_connection"}'));
    return Number(line?.split(' ').at(-1) ?? NaN);
  }

  /** Whether A's failures for a fresh client block it on B, i.e. the count is shared. */
  async function shared(): Promise<boolean> {
    const client = newClient();
    for (let i = 0; i < POINTS; i++) await apiFrom(a, client, generateSecret(), WHOAMI);
    return (await apiFrom(b, client, generateSecret(), WHOAMI)).statusCode === 429;
  }

  it('blocks on B a client whose failures were made on A, and still lets its valid key through', async () => {
    const client = newClient();
    await fail(a, client, POINTS - 1);
    await fail(b, client, 1); // the 20th, on the other instance, still counted and answered
    expectProblem(await apiFrom(b, client, generateSecret(), WHOAMI), 429, 'too_many_requests');
    expectProblem(await apiFrom(a, client, generateSecret(), WHOAMI), 429, 'too_many_requests');
    expect((await apiFrom(b, client, valid, WHOAMI)).statusCode).toBe(200);
    // Another client is not affected.
    expectProblem(await apiFrom(b, newClient(), generateSecret(), WHOAMI), 401, 'api_key_invalid');
  });

  it(
    'falls back to per-instance counting while Redis is down, never blocking a valid key, and shares again when it returns',
    { timeout: 90_000 },
    async () => {
      expect(await redisFailures()).toBe(0);
      await proxy.off();
      // The lost connection is reported, not swallowed: a warning and a count on /metrics.
      await waitFor(async () => (await redisFailures()) > 0, { timeoutMs: 10_000, what: 'the Redis failure counted' });
      const client = newClient();
      expect((await apiFrom(a, client, valid, WHOAMI)).statusCode).toBe(200);
      await fail(a, client, POINTS);
      // A still throttles from memory...
      expectProblem(await apiFrom(a, client, generateSecret(), WHOAMI), 429, 'too_many_requests');
      // ...B has not heard of it: the count is per instance now.
      await fail(b, client, 1);
      // A valid key passes on both, from the client A blocked and from a new one.
      for (const h of [a, b]) {
        expect((await apiFrom(h, client, valid, WHOAMI, 'bearer')).statusCode).toBe(200);
        expect((await apiFrom(h, newClient(), valid, WHOAMI, 'query')).statusCode).toBe(200);
      }
      expect(await shared()).toBe(false);

      await proxy.on();
      await waitFor(shared, { timeoutMs: 30_000, what: 'shared counting after Redis returned', everyMs: 200 });
      expect((await apiFrom(b, newClient(), valid, WHOAMI)).statusCode).toBe(200);
    },
  );
});
