/**
 * `npm run bench` (add `--long` for the 1M-key cold path and the 200k-key memory run): every
 * performance target of issue 9 against its reference, measured in one run with interleaved
 * rounds, printed as one table and written to bench/RESULTS.md. Exits non-zero when a response
 * that should be 2xx was not. Settings: BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_CONNECTIONS (50),
 * BENCH_DATABASE_URL or DATABASE_URL (else a throwaway database on postgres://postgres@127.0.0.1:5432).
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { AirkeyReady } from './airkey-server.ts';
import { longRun } from './long.ts';
import { AS_NPM_START, pinning, startServer, type Server } from './measure.ts';
import { throwawayPostgres } from './postgres.ts';
import { flood } from './flood.ts';
import { backOffice, flights, pipeline, type Row, type Settings } from './scenarios.ts';
import type { BareOptions } from './bare-server.ts';
import { webhooksBench } from './webhooks.ts';

const settings: Settings = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  seconds: Number(process.env.BENCH_SECONDS ?? 4),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  log: (line) => console.log(line),
};
const long = process.argv.includes('--long');
// `--only=pipeline,flights,backoffice,flood,postgres,pglite` narrows a run while working on one figure.
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice(7)
  .split(',');
const wanted = (part: string) => !only || only.includes(part);
const FLIGHTS_NOW = '2026-11-22T12:00:00Z';
const rows: Row[] = [];
const notes: string[] = [];
let bad = 0;
const started = Date.now();

const airkey = (env: Record<string, string | undefined>) =>
  startServer<AirkeyReady>('./airkey-server.ts', { ...AS_NPM_START, BENCH_FLIGHTS_NOW: FLIGHTS_NOW, ...env });
const bare = (options: BareOptions) => startServer<{ url: string }>('./bare-server.ts', {}, options);
const add = (result: { rows: Row[]; bad: number }) => {
  rows.push(...result.rows);
  bad += result.bad;
};

async function engine(name: 'pglite' | 'postgres', databaseUrl: string | undefined) {
  const env = { BENCH_ENGINE: name, BENCH_DATABASE_URL: databaseUrl };
  // 1 bench key + 799 listed + 200 created by the back-office scenario = 1,000 keys.
  const subject = await airkey({ ...env, BENCH_EXTRA_KEYS: '799' });
  const servers: Array<Server<unknown>> = [subject];
  try {
    const reference = await bare({
      whoami: subject.info.whoami,
      engine: name,
      databaseUrl,
      tenantId: subject.info.tenantId,
      flightsNow: FLIGHTS_NOW,
    });
    servers.push(reference);
    if (name === 'pglite' && wanted('pipeline')) add(await pipeline(subject.info, reference.info.url, settings));
    if (wanted('flights')) add(await flights(name, subject.info, reference.info.url, settings));
    if (name === 'pglite' && wanted('flights')) {
      // What a page costs when it is read every time: the page cache turned off.
      const uncached = await airkey({ ...env, FLIGHT_PAGE_CACHE_PAGES: '0' });
      servers.push(uncached);
      add(await flights('pglite, page cache off', uncached.info, reference.info.url, settings, true));
    }
    if (wanted('backoffice')) add(await backOffice(name, subject.info, 200, settings));
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  if (!wanted('flood')) return;
  const flooded = await airkey({ ...env, KEY_CACHE_MAX_AGE_MS: '3000' });
  // On PGlite the flood is also measured against connections alone, on a bare route (idle meanwhile).
  const floor =
    name === 'pglite'
      ? await bare({ whoami: flooded.info.whoami, engine: 'none', tenantId: '', flightsNow: FLIGHTS_NOW })
      : undefined;
  try {
    const result = await flood(name, flooded.info, flooded.child.pid!, settings, floor && { bareUrl: floor.info.url });
    add(result);
    if (result.note && !notes.includes(result.note)) notes.push(result.note);
  } finally {
    await Promise.all([flooded.stop(), floor?.stop()]);
  }
}

if ((only?.includes('webhooks') ?? true) || process.argv.includes('--webhooks')) add(await webhooksBench(settings));
if (wanted('pglite') || !only?.some((part) => part === 'postgres' || part === 'long'))
  await engine('pglite', undefined);
const postgres = only?.includes('pglite')
  ? undefined
  : await throwawayPostgres(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL);
if (postgres) {
  try {
    if (!only?.includes('long') || only.includes('postgres')) await engine('postgres', postgres.url);
    if (long) {
      const subject = (info: Record<string, string>) =>
        airkey({ BENCH_ENGINE: 'postgres', BENCH_DATABASE_URL: postgres.url, ...info });
      const reference = (databaseUrl: string) =>
        bare({ whoami: null, engine: 'postgres', databaseUrl, tenantId: '', flightsNow: FLIGHTS_NOW });
      add(await longRun(postgres.url, settings, subject, reference));
    }
  } finally {
    await postgres.drop();
  }
} else if (!only?.includes('pglite')) {
  notes.push('PostgreSQL rows skipped: no server reachable (set BENCH_DATABASE_URL, or run one on 127.0.0.1:5432).');
}
if (!long) notes.push('4. cold path at scale (1M keys, 200k distinct keys): run `npm run bench -- --long`.');

const header = ['what', 'airkey', 'reference', 'ratio', 'target', 'met'];
const lines = [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map(
    (r) =>
      `| ${r.what} | ${r.value} | ${r.reference} | ${r.ratio} | ${r.target} | ${r.pass === undefined ? '' : r.pass ? 'yes' : '**no**'} |`,
  ),
];
const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString()}`;
const cores = pinning
  ? `load on core ${pinning.load}, servers on core(s) ${pinning.servers}`
  : 'load and servers unpinned';
const setup = `${settings.rounds} interleaved rounds × ${settings.seconds} s, ${settings.connections} connections, medians; ${cores}; ${((Date.now() - started) / 1000).toFixed(0)} s in all`;
const report = [
  `# airkey bench`,
  '',
  machine,
  '',
  setup,
  '',
  ...lines,
  '',
  ...notes.map((n) => `- ${n}`),
  `- responses that should have been 2xx and were not: ${bad}`,
  '',
].join('\n');
console.log(`\n${report}`);
writeFileSync(new URL('./RESULTS.md', import.meta.url), report);
if (bad > 0) process.exitCode = 1;
