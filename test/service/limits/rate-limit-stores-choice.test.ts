import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import type { Database } from '../../../src/db/handle.ts';
import { createRateLimiter } from '../../../src/limits/budget/create-limiter.ts';
import type { RateLimit } from '../../../src/shared/limit-terms.ts';
import { connectRedis } from '../../../src/throttle/redis-client.ts';
import { freshDataDir, freshPostgresUrl } from '../../support/databases.ts';
import { UNWATCHED } from '../../support/unwatched.ts';

const LIMIT: RateLimit = { requests: 10, window: '1h' };

/** Where the counts live: memory for PGlite, rate_limit_windows for PostgreSQL, Redis when given. */
describe('the store createRateLimiter picks', () => {
  let pglite: Database;
  let postgres: Database;
  beforeAll(async () => {
    pglite = await openDatabase({ dataDir: ':memory:' });
    postgres = await openDatabase({ databaseUrl: await freshPostgresUrl(), dataDir: freshDataDir() });
  });
  afterAll(async () => {
    await pglite?.close();
    await postgres?.close();
  });

  const windows = async (database: Database, keyId: string) => {
    const result = await database.db.execute(
      sql`select count(*)::int as n from rate_limit_windows where key_id = ${keyId}::uuid`,
    );
    return (result as { rows: Array<{ n: number }> }).rows[0]?.n;
  };

  it('keeps the embedded mode in memory: every decision synchronous, no row written', async () => {
    const limiter = createRateLimiter({ kind: 'pglite', db: pglite.db, now: () => Date.now() });
    const keyId = randomUUID();
    const decisions = Array.from({ length: 12 }, () => limiter.take(keyId, LIMIT));
    expect(decisions.some((d) => d instanceof Promise)).toBe(false);
    expect(decisions.filter((d) => !(d instanceof Promise) && d.ok)).toHaveLength(10);
    expect(await windows(pglite, keyId)).toBe(0);
  });

  it('leases from rate_limit_windows on PostgreSQL', async () => {
    const limiter = createRateLimiter({ kind: 'postgres', db: postgres.db, now: () => Date.now() });
    const keyId = randomUUID();
    expect((await limiter.take(keyId, LIMIT)).ok).toBe(true);
    expect(await windows(postgres, keyId)).toBe(1);
    await limiter.close();
  });

  it('leases from Redis when it is given, writing no row', async (ctx) => {
    ctx.skip(!inject('redisUrl'), inject('redisProblem'));
    const redis = await connectRedis(inject('redisUrl'), UNWATCHED);
    try {
      const limiter = createRateLimiter({ kind: 'postgres', db: postgres.db, redis, now: () => Date.now() });
      const keyId = randomUUID();
      expect((await limiter.take(keyId, LIMIT)).ok).toBe(true);
      expect(await windows(postgres, keyId)).toBe(0);
      expect(await redis.keys(`airkey:rate:${keyId}:*`)).toHaveLength(1);
      await limiter.close();
    } finally {
      redis.disconnect();
    }
  });
});
