import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import type { Database } from '../../../src/db/handle.ts';
import { PostgresBudgetStore, sliceOf, type LeaseRequest } from '../../../src/limits/budget/budget-store.ts';
import { freshDataDir, freshPostgresUrl } from '../../support/databases.ts';

const WINDOW_START = Date.parse('2026-11-22T12:00:00Z');
const MINUTE = 60_000;

/** The shared store as two instances see it: two connection pools on one PostgreSQL database. */
describe('PostgreSQL budget store', () => {
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    const databaseUrl = await freshPostgresUrl();
    one = await openDatabase({ databaseUrl, dataDir: freshDataDir() });
    two = await openDatabase({ databaseUrl, dataDir: freshDataDir() });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  /** `used` of each stored window of the key. */
  async function usedOf(keyId: string): Promise<number[]> {
    const result = await one.db.execute<{ used: number }>(
      sql`select used from rate_limit_windows where key_id = ${keyId}::uuid order by window_start`,
    );
    return (result as { rows: Array<{ used: number }> }).rows.map((row) => Number(row.used));
  }

  const request = (keyId: string, limit: number, windowStart = WINDOW_START): LeaseRequest => ({
    keyId,
    windowStart,
    windowMs: MINUTE,
    limit,
    maxSlice: Infinity,
    now: windowStart + 1_000,
  });

  it('grants an eighth of what is left per lease, down to single requests, then nothing', async () => {
    const store = new PostgresBudgetStore(one.db);
    const keyId = randomUUID();
    const grants: number[] = [];
    for (;;) {
      const lease = await store.lease(request(keyId, 100));
      grants.push(lease.granted);
      if (lease.granted === 0) {
        expect(lease.used).toBe(100);
        break;
      }
    }
    expect(grants.slice(0, 4)).toEqual([13, 11, 10, 9]);
    expect(grants.slice(-3)).toEqual([1, 1, 0]);
    expect(grants.reduce((a, b) => a + b, 0)).toBe(100);
    // Each grant is the reference rule applied to what was left.
    let used = 0;
    for (const granted of grants) {
      expect(granted).toBe(sliceOf(100 - used));
      used += granted;
    }
  });

  it('never grants more than the limit to many concurrent leases from two instances', async () => {
    const stores = [new PostgresBudgetStore(one.db), new PostgresBudgetStore(two.db)];
    const keyId = randomUUID();
    const leases = await Promise.all(
      Array.from({ length: 200 }, (_, i) => stores[i % 2]!.lease(request(keyId, 1_000))),
    );
    const granted = leases.reduce((sum, lease) => sum + lease.granted, 0);
    expect(granted).toBeLessThanOrEqual(1_000);
    // 200 leases of an eighth of the remainder each leave almost nothing, and every grant is counted.
    expect(granted).toBeGreaterThan(990);
    expect(await usedOf(keyId)).toEqual([granted]);
  });

  it('lets concurrent first leases of a new window all succeed, the row created once', async () => {
    const stores = [new PostgresBudgetStore(one.db), new PostgresBudgetStore(two.db)];
    const keyId = randomUUID();
    const leases = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2]!.lease(request(keyId, 50))));
    const granted = leases.reduce((sum, lease) => sum + lease.granted, 0);
    expect(granted).toBeLessThanOrEqual(50);
    expect(Math.max(...leases.map((lease) => lease.used))).toBe(granted);
  });

  it('keeps windows apart: a new window starts with the whole limit', async () => {
    const store = new PostgresBudgetStore(one.db);
    const keyId = randomUUID();
    await store.lease(request(keyId, 8));
    expect(await store.lease(request(keyId, 8, WINDOW_START + MINUTE))).toEqual({ granted: 1, used: 1 });
  });

  it('prunes windows that ended over a day ago', async () => {
    const keyId = randomUUID();
    const old = WINDOW_START - 3 * 86_400_000;
    const store = new PostgresBudgetStore(one.db);
    await store.lease({ ...request(keyId, 10, old), now: old });
    await store.lease(request(keyId, 10));
    // The old row is gone; the current one (an eighth of 10, rounded up) stays.
    await expect.poll(() => usedOf(keyId)).toEqual([2]);
  });
});
