import { describe, expect, it } from 'vitest';
import { runSoak } from './soak-run.ts';
import { freshPostgresUrl } from '../support/databases.ts';
import { takeTurn } from '../support/instances.ts';

/**
 * The short soak (`npm run test:soak` runs the long one, soak-long.ts): two instances on one
 * PostgreSQL, mixed key traffic and back-office churn. Zero 5xx, zero wrong answers (anything but
 * 200 for a live key and 401 for a revoked or unknown one, soak-run.ts), and RSS measured; the
 * bound here is looser (25 %) than the long run's 10 %, a short run still warming.
 */
const SECONDS = Number(process.env.SOAK_TEST_SECONDS ?? 20);

describe('the short soak', () => {
  it(
    `answers ${SECONDS} s of mixed traffic and churn on two instances with 200 for every live key and 401 for every revoked or unknown one`,
    { timeout: 240_000 },
    async () => {
      const release = await takeTurn();
      try {
        const figures = await runSoak({
          databaseUrl: await freshPostgresUrl(),
          seconds: SECONDS,
          warmupSeconds: SECONDS / 4,
          concurrency: 3,
          log: console.info,
        });
        expect(figures.requests).toBeGreaterThan(SECONDS * 10);
        expect(figures.churn).toBeGreaterThan(SECONDS);
        expect(figures.statuses['200']).toBeGreaterThan(0);
        expect(figures.statuses['401']).toBeGreaterThan(0);
        expect(figures.fiveXx).toBe(0);
        expect(figures.wrong).toEqual([]);
        for (const rss of figures.rss)
          expect(rss.growth, `${rss.instance} RSS ${rss.warmMb.toFixed(0)} → ${rss.endMb.toFixed(0)} MB`).toBeLessThan(
            0.25,
          );
      } finally {
        await release();
      }
    },
  );
});
