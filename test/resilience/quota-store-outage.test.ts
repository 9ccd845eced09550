import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { apiFrom, expectProblem } from '../support/problems.ts';
import { createKeyWithQuota } from '../support/quota-kit.ts';
import { stoppablePostgres, type StoppablePostgres } from '../support/stoppable-postgres.ts';
import { waitFor } from '../support/instances.ts';

/**
 * docs/keys.md (Quotas): an instance that cannot reach a quota's count spends what it already holds of it, then
 * answers 503 unavailable, never 429 quota_exceeded (which would be untrue), and serves the key
 * again once the database is back. On a PostgreSQL of the test's own, stopped with `-m immediate`.
 */
describe("a key's quota while its count (the database) is away", () => {
  let db: StoppablePostgres;
  let h: Harness;
  let clients = 0;
  const client = () => `10.13.${Math.floor(++clients / 250)}.${clients % 250}`;

  beforeAll(async () => {
    db = await stoppablePostgres();
    h = await createHarness({ config: { databaseUrl: db.url, logLevel: 'error' } });
  });
  afterAll(async () => {
    await h?.close().catch(() => {});
    await db?.remove();
  });

  it('spends what it holds, then 503 unavailable, never quota_exceeded; served again once the database is back', async () => {
    const admin = await h.signedIn();
    // Slices of 5 (1/200): an instance holds at most a slice and a half, whatever it has served.
    const { secret } = await createKeyWithQuota(admin, { requests: 1_000, period: 'day' });
    for (let i = 0; i < 3; i++) expect((await apiFrom(h, client(), secret, '/api/v1/whoami')).statusCode).toBe(200);
    await db.stopImmediately();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await apiFrom(h, client(), secret, '/api/v1/whoami');
      statuses.push(response.statusCode);
      if (response.statusCode !== 200) expectProblem(response, 503, 'unavailable');
    }
    console.info(`quota 1,000/day with the database stopped, 20 requests: ${JSON.stringify(statuses)}`);
    // What it held when the database went: at most 7 accepted, then refused, and never over the quota.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(7);
    expect(statuses.at(-1)).toBe(503);
    await db.start();
    let last = '';
    await waitFor(
      async () => {
        // The harness's clock stands still: move it past the second a failed store is left alone.
        h.clock.advance(1_100);
        const response = await apiFrom(h, client(), secret, '/api/v1/whoami');
        last = `${response.statusCode} ${response.body}`;
        return response.statusCode === 200;
      },
      {
        timeoutMs: 60_000,
        what: 'the key served again',
      },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; the last answer: ${last}`);
    });
  }, 120_000);
});
