import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { connectRedis } from '../../../src/throttle/redis-client.ts';
import { RedisBudgetStore, sliceOf, type LeaseRequest } from '../../../src/limits/budget/budget-store.ts';
import { RateLimiter, type RateDecision } from '../../../src/limits/budget/rate-limiter.ts';
import type { RateLimit } from '../../../src/shared/limit-terms.ts';
import { switchableProxy } from '../../support/switchable-proxy.ts';
import { UNWATCHED } from '../../support/unwatched.ts';

const WINDOW_START = Date.parse('2026-11-22T12:00:00Z');
const MINUTE = 60_000;
const redisUrl = inject('redisUrl');

/** Three instances, each with its own connection, on one Redis. */
describe('Redis budget store', () => {
  const clients: Redis[] = [];
  beforeEach((ctx) => ctx.skip(!redisUrl, inject('redisProblem')));
  beforeAll(async () => {
    if (!redisUrl) return;
    for (let i = 0; i < 3; i++) clients.push(await connectRedis(redisUrl, UNWATCHED));
  });
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  const request = (keyId: string, limit: number): LeaseRequest => ({
    keyId,
    windowStart: WINDOW_START,
    windowMs: MINUTE,
    limit,
    maxSlice: Infinity,
    now: Date.now(),
  });

  it('grants an eighth of what is left per lease, then nothing, and lets the counter expire', async () => {
    const store = new RedisBudgetStore(clients[0]!);
    const keyId = randomUUID();
    let used = 0;
    for (;;) {
      const lease = await store.lease(request(keyId, 100));
      expect(lease).toEqual({ granted: sliceOf(100 - used), used: used + sliceOf(100 - used) });
      used = lease.used;
      if (lease.granted === 0) break;
    }
    expect(used).toBe(100);
    const ttl = await clients[0]!.pttl(`airkey:rate:${keyId}:${MINUTE}:${WINDOW_START}`);
    expect(ttl).toBeGreaterThan(0);
  });

  it('never grants more than the limit to many concurrent leases from three instances', async () => {
    const stores = clients.map((client) => new RedisBudgetStore(client));
    const keyId = randomUUID();
    const leases = await Promise.all(
      Array.from({ length: 300 }, (_, i) => stores[i % 3]!.lease(request(keyId, 1_000))),
    );
    const granted = leases.reduce((sum, lease) => sum + lease.granted, 0);
    expect(granted).toBeLessThanOrEqual(1_000);
    expect(Math.max(...leases.map((lease) => lease.used))).toBe(granted);
  });

  it('accepts at most the limit and at least 90 % of it per minute on three limiters', async () => {
    const clock = { now: WINDOW_START };
    const limiters = clients.map(
      (client) => new RateLimiter({ store: new RedisBudgetStore(client), now: () => clock.now }),
    );
    const keyId = randomUUID();
    const limit: RateLimit = { requests: 300, window: '1m' };
    const perMinute: number[] = [];
    for (let minute = 0; minute < 3; minute++) {
      let accepted = 0;
      for (let step = 0; step < 50; step++) {
        clock.now = WINDOW_START + minute * MINUTE + step * 1_000;
        const asks: Array<RateDecision | Promise<RateDecision>> = [];
        // Uneven demand: the first instance gets most of it.
        for (let i = 0; i < 30; i++) asks.push(limiters[i % 5 < 3 ? 0 : (i % 2) + 1]!.take(keyId, limit));
        accepted += (await Promise.all(asks.map((ask) => Promise.resolve(ask)))).filter((d) => d.ok).length;
      }
      perMinute.push(accepted);
    }
    console.log(`Redis, accepted per minute (limit 300, 1,500 asked, 3 instances): ${perMinute.join(', ')}`);
    for (const accepted of perMinute) {
      expect(accepted).toBeLessThanOrEqual(300);
      expect(accepted).toBeGreaterThanOrEqual(270);
    }
  });

  it('spends only what it holds while Redis is unreachable, refuses the rest and reports it, then resumes', async () => {
    const proxy = await switchableProxy(redisUrl);
    const client = await connectRedis(proxy.url, UNWATCHED);
    try {
      const errors: unknown[] = [];
      const limiter = new RateLimiter({
        store: new RedisBudgetStore(client),
        now: () => Date.now(),
        onError: (error) => errors.push(error),
      });
      const keyId = randomUUID();
      const limit: RateLimit = { requests: 800, window: '1d' };
      expect((await limiter.take(keyId, limit)).ok).toBe(true); // holds 99 of the first slice of 100
      await proxy.off();
      let accepted = 1;
      let refused = 0;
      while (refused < 50) {
        if ((await limiter.take(keyId, limit)).ok) accepted++;
        else refused++;
      }
      console.log(`Redis away: ${accepted} accepted from the held slices, then refused`);
      // The first slice, and the refill only if it landed before the relay went off.
      expect(accepted).toBeLessThanOrEqual(100 + 88);
      expect(errors.length).toBeGreaterThan(0);
      await proxy.on();
      await expect
        .poll(async () => (await limiter.take(keyId, limit)).ok, { timeout: 10_000, interval: 200 })
        .toBe(true);
      await limiter.close();
    } finally {
      client.disconnect();
      await proxy.close();
    }
  });
});
