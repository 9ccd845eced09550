// `npm run test:soak`: the long soak (SOAK_SECONDS, default 600) on DATABASE_URL or
// TEST_DATABASE_URL, else a throwaway PostgreSQL. Fails on any 5xx, any wrong answer (soak-run.ts:
// anything but 200 for a live key and 401 for a revoked or unknown one), or a heap retained after a
// forced GC at the end more than 10 % above the one after warm-up (soak.test.ts says why not RSS).
import { randomBytes } from 'node:crypto';
import { startThrowawayPostgres } from '../support/throwaway-postgres.ts';
import { freePort } from '../support/free-port.ts';
import { databaseUrl, onServer } from '../support/postgres-admin.ts';
import { runSoak } from './soak-run.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const throwaway = base ? undefined : await startThrowawayPostgres(await freePort());
const server = base ?? throwaway!.url;
const name = `airkey_soak_${randomBytes(4).toString('hex')}`;
await onServer(server, `create database ${name}`);

const figures = await runSoak({
  databaseUrl: databaseUrl(server, name),
  seconds,
  warmupSeconds: Math.min(60, seconds / 5),
  concurrency: 4,
  log: console.log,
});
await throwaway?.stop();
const problems = [
  ...(figures.fiveXx ? [`${figures.fiveXx} responses were 5xx`] : []),
  ...figures.wrong.slice(0, 20),
  ...figures.memory
    .filter((m) => m.heapGrowthMb / m.warm.heapUsedMb > 0.1)
    .map((m) => `${m.instance}: heap after GC grew ${m.heapGrowthMb.toFixed(1)} MB after warm-up`),
];
if (problems.length) {
  console.error(`SOAK FAILED:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('soak passed');
