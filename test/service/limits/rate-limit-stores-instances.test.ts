import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import type { Database } from '../../../src/db/handle.ts';
import { PostgresBudgetStore, type BudgetStore } from '../../../src/limits/budget/budget-store.ts';
import { RateLimiter, type RateDecision } from '../../../src/limits/budget/rate-limiter.ts';
import type { RateLimit } from '../../../src/shared/limit-terms.ts';
import { freshDataDir, freshPostgresUrl } from '../../support/databases.ts';
import { switchableProxy } from '../../support/switchable-proxy.ts';

const START = Date.parse('2026-11-22T12:00:00Z');

/** Three instances, each with its own connection pool, on one PostgreSQL database. */
describe('rate limiters of three instances on one PostgreSQL', () => {
  let url: string;
  const databases: Database[] = [];
  beforeAll(async () => {
    url = await freshPostgresUrl();
    for (let i = 0; i < 3; i++) databases.push(await openDatabase({ databaseUrl: url, dataDir: freshDataDir() }));
  });
  afterAll(async () => {
    for (const database of databases) await database.close();
  });

  const limitersOn = (clock: { now: number }) =>
    databases.map((d) => new RateLimiter({ store: new PostgresBudgetStore(d.db), now: () => clock.now }));

  /** `perInstance` concurrent requests on each live instance; the number accepted. */
  async function round(limiters: RateLimiter[], keyId: string, limit: RateLimit, perInstance: number) {
    const asks: Array<RateDecision | Promise<RateDecision>> = [];
    for (let i = 0; i < perInstance; i++) for (const limiter of limiters) asks.push(limiter.take(keyId, limit));
    const decisions = await Promise.all(asks.map((ask) => Promise.resolve(ask)));
    return decisions.filter((d) => d.ok).length;
  }

  it('accepts at most the limit and at least 90 % of it per minute under five times the demand', async () => {
    const clock = { now: START };
    const limiters = limitersOn(clock);
    const keyId = randomUUID();
    const limit: RateLimit = { requests: 300, window: '1m' };
    const perMinute: number[] = [];
    for (let minute = 0; minute < 4; minute++) {
      let accepted = 0;
      // 1,500 requests asked for, spread over 50 s of the minute.
      for (let step = 0; step < 50; step++) {
        clock.now = START + minute * 60_000 + step * 1_000;
        accepted += await round(limiters, keyId, limit, 10);
      }
      perMinute.push(accepted);
    }
    console.log(`accepted per minute (limit 300, 1,500 asked, 3 instances): ${perMinute.join(', ')}`);
    for (const accepted of perMinute) {
      expect(accepted).toBeLessThanOrEqual(300);
      expect(accepted).toBeGreaterThanOrEqual(270);
    }
    await Promise.all(limiters.map((l) => l.close()));
  });

  it('never passes 20 a second when an instance crashes holding budget', async () => {
    const clock = { now: START };
    let limiters = limitersOn(clock);
    const keyId = randomUUID();
    const limit: RateLimit = { requests: 20, window: '1s' };
    const perSecond: number[] = [];
    for (let second = 0; second < 4; second++) {
      let accepted = 0;
      for (let step = 0; step < 10; step++) {
        clock.now = START + second * 1_000 + step * 100;
        // Midway the third instance is gone with whatever it held (a SIGKILL loses it, never adds).
        if (second === 2 && step === 3) limiters = limiters.slice(0, 2);
        accepted += await round(limiters, keyId, limit, 3);
      }
      perSecond.push(accepted);
    }
    console.log(`accepted per second (limit 20, 90 asked, a crash in the third): ${perSecond.join(', ')}`);
    for (const accepted of perSecond) expect(accepted).toBeLessThanOrEqual(20);
    expect(perSecond[3]).toBe(20);
  });

  it('spends only what it holds while PostgreSQL is unreachable, refuses the rest and reports it, then resumes', async () => {
    const proxy = await switchableProxy(url);
    const database = await openDatabase({ databaseUrl: proxy.url, dataDir: freshDataDir() });
    try {
      const errors: unknown[] = [];
      // Every lease asked of the store, so the test can wait for the ones under way to land.
      const postgres = new PostgresBudgetStore(database.db);
      const asked: Promise<unknown>[] = [];
      const store: BudgetStore = {
        lease: (request) => {
          const answer = Promise.resolve(postgres.lease(request));
          asked.push(answer);
          return answer;
        },
      };
      const limiter = new RateLimiter({
        store,
        now: () => Date.now(),
        onError: (error) => errors.push(error),
      });
      const keyId = randomUUID();
      const limit: RateLimit = { requests: 1_000_000, window: '1d' };
      expect((await limiter.take(keyId, limit)).ok).toBe(true);
      await Promise.allSettled(asked); // the refill, if the first request started one, has landed
      await proxy.off();
      const started = performance.now();
      let accepted = 1;
      let refused = 0;
      while (refused < 50 && accepted < 1_000_000) {
        if ((await limiter.take(keyId, limit)).ok) accepted++;
        else refused++;
      }
      const elapsedMs = performance.now() - started;
      console.log(
        `PostgreSQL away: ${accepted} accepted from the held slices, then refused; ${elapsedMs.toFixed(0)} ms`,
      );
      // What it held: the first slice and at most one refill (an eighth of the rest).
      expect(accepted).toBeLessThanOrEqual(125_000 + 109_375);
      expect(refused).toBe(50);
      expect(errors.length).toBeGreaterThan(0);
      await proxy.on();
      await expect
        .poll(async () => (await limiter.take(keyId, limit)).ok, { timeout: 10_000, interval: 200 })
        .toBe(true);
      await limiter.close();
    } finally {
      await database.close();
      await proxy.close();
    }
  });
});
