/**
 * `npm run bench`: every performance target against its reference, measured in one run with
 * interleaved rounds, printed as one table and written to bench/RESULTS.md (method: bench/README.md).
 *
 * Exit status: 1 when any row's target is missed or missing (a wanted PostgreSQL row with no
 * PostgreSQL reachable), unless `--report-only`; 1 in every case when any load got an answer it
 * should not have (a non-2xx where 2xx was due, warm-ups and controls included: figures of a
 * failing server are not figures).
 *
 * Flags: `--only=<scenario or engine>,...` (e.g. `--only=pipeline`, `--only=flights,postgres`),
 * `--long` (adds the opt-in scenarios), `--report-only`. Settings: BENCH_ROUNDS (3), BENCH_SECONDS
 * (4), BENCH_CONNECTIONS (50), BENCH_DATABASE_URL or DATABASE_URL (else a throwaway database on
 * postgres://postgres@127.0.0.1:5432).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AirkeyReady } from './airkey-server.ts';
import type { BareOptions } from './bare-server.ts';
import { floodScenario } from './flood.ts';
import { longScenario } from './long.ts';
import { AS_NPM_START, NPM_START_NODE_FLAGS, pinning, responses, startServer, type Server } from './measure.ts';
import { throwawayPostgres } from './postgres.ts';
import { missingRow, table, verdict, type Row } from './rows.ts';
import type { Engine, Scenario, ScenarioContext, Settings } from './scenario.ts';
import { rateLimits } from './rate-limits.ts';
import { allowlists } from './allowlists.ts';
import { quotas } from './quotas.ts';
import { signInScenario } from './sign-in.ts';
import { startupScenario } from './startup.ts';
import { tracing } from './tracing.ts';
import { requestLine } from './request-line.ts';
import { requestLog } from './request-log.ts';
import { requestLogWriter } from './request-log-writer.ts';
import { requestLogQueries } from './request-log-queries.ts';
import { webhooksScenario } from './webhooks.ts';
import { mcpScenario } from './mcp.ts';
import { oauthScenario } from './oauth.ts';
import { backOfficeScenario, flights, flightsUncached, pipeline } from './scenarios.ts';
import { temporaryRunRoot } from './run-root.ts';

temporaryRunRoot();

/** Every scenario, in the order they run on each engine. Another branch adds its own with one entry here. */
const SCENARIOS: Scenario[] = [
  pipeline,
  flights,
  flightsUncached,
  backOfficeScenario,
  rateLimits,
  allowlists,
  quotas,
  signInScenario,
  tracing,
  requestLog,
  requestLine,
  requestLogWriter,
  requestLogQueries,
  webhooksScenario,
  mcpScenario,
  oauthScenario,
  startupScenario,
  floodScenario,
  longScenario,
];

const ENGINES: Engine[] = ['pglite', 'postgres'];
const settings: Settings = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  seconds: Number(process.env.BENCH_SECONDS ?? 4),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  log: (line) => console.log(line),
};
// A flag it does not know would otherwise start the whole bench (20 minutes of both cores).
const FLAGS = ['--long', '--report-only', '--only='];
const strange = process.argv
  .slice(2)
  .filter((arg) => !FLAGS.some((flag) => arg === flag || (flag.endsWith('=') && arg.startsWith(flag))));
if (strange.length) {
  const help = strange.every((arg) => arg === '--help' || arg === '-h');
  (help ? console.log : console.error)(
    [
      ...(help ? [] : [`bench: unknown argument ${strange.join(' ')}`]),
      'usage: npm run bench -- [--only=<scenario or engine>,...] [--long] [--report-only]',
      `scenarios: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}; engines: ${ENGINES.join(', ')}`,
      'settings: BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_CONNECTIONS (50), BENCH_DATABASE_URL (bench/README.md)',
    ].join('\n'),
  );
  process.exit(help ? 0 : 2);
}
const long = process.argv.includes('--long');
const reportOnly = process.argv.includes('--report-only');
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const unknown = only?.filter((part) => !ENGINES.includes(part as Engine) && !SCENARIOS.some((s) => s.name === part));
if (unknown?.length) {
  console.error(
    `bench: no scenario or engine named ${unknown.join(', ')} (scenarios: ${SCENARIOS.map((s) => s.name).join(', ')})`,
  );
  process.exit(2);
}
const onlyEngines = only?.filter((part) => ENGINES.includes(part as Engine));
const onlyScenarios = only?.filter((part) => !ENGINES.includes(part as Engine));
const wanted = (scenario: Scenario, engine: Engine) =>
  scenario.engines.includes(engine) &&
  (!onlyEngines?.length || onlyEngines.includes(engine)) &&
  (onlyScenarios?.length ? onlyScenarios.includes(scenario.name) : !scenario.optIn || long);

const FLIGHTS_NOW = '2026-11-22T12:00:00Z';
const rows: Row[] = [];
const notes: string[] = [];
const started = Date.now();

const startAirkey = (env: Record<string, string | undefined>) =>
  startServer<AirkeyReady>(
    './airkey-server.ts',
    { ...AS_NPM_START, BENCH_FLIGHTS_NOW: FLIGHTS_NOW, ...env },
    undefined,
    'server',
    { nodeFlags: [...NPM_START_NODE_FLAGS] },
  );
const startBare = (options: BareOptions) => startServer<{ url: string }>('./bare-server.ts', {}, options);

/** Runs the engine's wanted scenarios; the shared subject and reference start on first use. */
async function runEngine(engine: Engine, databaseUrl: string | undefined, scenarios: Scenario[]): Promise<void> {
  const env = { BENCH_ENGINE: engine, BENCH_DATABASE_URL: databaseUrl };
  const own: Array<Server<unknown>> = [];
  let shared: { subject: Server<AirkeyReady>; reference: Server<{ url: string }> } | undefined;
  const startShared = async () => {
    // 1 bench key + 799 listed + 200 created by the back-office scenario = 1,000 keys.
    const subject = await startAirkey({ ...env, BENCH_EXTRA_KEYS: '799' });
    const reference = await startBare({
      whoami: subject.info.whoami,
      engine,
      databaseUrl,
      tenantId: subject.info.tenantId,
      flightsNow: FLIGHTS_NOW,
    });
    return (shared = { subject, reference });
  };
  const stopShared = async () => {
    await Promise.all([shared?.subject.stop(), shared?.reference.stop()]);
    shared = undefined;
  };
  const context: ScenarioContext = {
    engine,
    databaseUrl,
    settings,
    subject: async () => (shared ?? (await startShared())).subject.info,
    reference: async () => (shared ?? (await startShared())).reference.info.url,
    airkey: async (extra) => {
      const server = await startAirkey({ ...env, ...extra });
      own.push(server);
      return server;
    },
    bare: async (options) => {
      const server = await startBare({ ...options, flightsNow: FLIGHTS_NOW });
      own.push(server);
      return server;
    },
    note: (text) => void (notes.includes(text) || notes.push(text)),
  };
  try {
    for (const scenario of scenarios) {
      if (scenario.alone) await stopShared();
      rows.push(...(await scenario.run(context)));
      // A scenario's own servers end with it: the next one gets the machine.
      await Promise.all(own.splice(0).map((server) => server.stop()));
    }
  } finally {
    await stopShared();
    await Promise.all(own.map((server) => server.stop()));
  }
}

// The back-office page row loads the built page: build it when stale, as `npm start` does, before any server starts.
if (ENGINES.some((engine) => wanted(backOfficeScenario, engine))) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const built = spawnSync('node', ['scripts/build-web-if-needed.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the back office failed');
}

for (const engine of ENGINES) {
  const scenarios = SCENARIOS.filter((scenario) => wanted(scenario, engine));
  if (scenarios.length === 0) continue;
  if (engine === 'pglite') {
    await runEngine(engine, undefined, scenarios);
    continue;
  }
  const postgres = await throwawayPostgres(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL);
  if (!postgres) {
    const reason = 'not measured: no PostgreSQL reachable (set BENCH_DATABASE_URL, or run one on 127.0.0.1:5432)';
    rows.push(...scenarios.map((scenario) => missingRow(`${scenario.title} (postgres)`, reason)));
    continue;
  }
  try {
    await runEngine(engine, postgres.url, scenarios);
  } finally {
    await postgres.drop();
  }
}
if (!long && !only) notes.push('4. cold path at scale (1M keys, 200k distinct keys): run `npm run bench -- --long`.');

const verdicts = rows.map(verdict);
const tally = (v: string) => verdicts.filter((each) => each === v).length;
const [met, missed, missing] = [tally('met'), tally('missed'), tally('missing')];
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
  ...table(rows),
  '',
  ...notes.map((n) => `- ${n}`),
  `- targets: ${met} met, ${missed} missed, ${missing} missing`,
  `- answers that were not what their load expected (non-2xx where 2xx was due, warm-ups and controls included): ${responses.wrong} of ${responses.answered}`,
  '',
].join('\n');
console.log(`\n${report}`);
// RESULTS.md is the latest full table: a narrowed run only prints.
if (!only) writeFileSync(new URL('./RESULTS.md', import.meta.url), report);
if (responses.wrong > 0) {
  console.error(`bench: ${responses.wrong} answers were not what their load expected`);
  process.exitCode = 1;
} else if (missed + missing > 0 && !reportOnly) {
  console.error(`bench: ${missed} targets missed, ${missing} missing (--report-only to report without failing)`);
  process.exitCode = 1;
}
