/**
 * A bench server process: the real airkey app (`buildApp`, request line at info, or BENCH_LOG_LEVEL,
 * to this process's stdout, which the bench discards) on PGlite or PostgreSQL, with one tenant, one System
 * Administrator, one key and the demo flights. The environment is read like `npm start` reads it
 * (KEY_CACHE_MAX_AGE_MS, ...). Reports what the bench needs over IPC.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { apiKeys } from '../src/db/schema.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices } from '../src/app/services.ts';
import { loadConfig } from '../src/config.ts';
import { generateFlights } from '../src/flights/flight-seeder.ts';
import { buildApp } from '../src/http/app.ts';
import { mcpRoutes } from '../src/mcp/mcp-routes.ts';
import { signedInAs } from '../test/support/actors.ts';
import { SYSTEM_ACTOR } from '../src/shared/actor.ts';
import { startTracing } from '../src/telemetry/setup/tracing.ts';

export type AirkeyReady = {
  url: string;
  key: string;
  tenantId: string;
  whoami: unknown;
  email: string;
  password: string;
};

const FLIGHTS_NOW = new Date(process.env.BENCH_FLIGHTS_NOW ?? '2026-11-22T12:00:00Z');
const databaseUrl = process.env.BENCH_ENGINE === 'postgres' ? process.env.BENCH_DATABASE_URL : undefined;
const config = {
  ...loadConfig({ ...process.env, DATABASE_URL: '', PORT: '0' }),
  databaseUrl,
  dataDir: mkdtempSync(join(tmpdir(), 'airkey-bench-')),
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
  port: 0,
  maxKeysPerTenant: 1_000_000,
};
// As `airkey serve` does: the OTEL_* variables decide (none set: nothing loaded).
await startTracing();
const services = await createServices(config);
await services.start();
const slug = `bench-${process.pid}-${Date.now()}`;
const tenant = await services.accounts.tenants.create(SYSTEM_ACTOR, { name: 'Bench Air', slug });
const email = `${slug}@example.test`;
const password = 'bench-password-1';
await services.accounts.users.create(SYSTEM_ACTOR, tenant.id, {
  email,
  name: 'Bench',
  password,
  roles: ['system_administrator'],
});
const adminUser = await services.accounts.users.requireByEmail(email);
const { secret } = await services.keys.lifecycle.create(signedInAs(adminUser), { name: 'bench' });
// Keys for the back-office listing, written in one statement (the bench times creates separately).
const extraKeys = Number(process.env.BENCH_EXTRA_KEYS ?? 0);
if (extraKeys > 0) {
  const rows = Array.from({ length: extraKeys }, (_, i) => ({
    tenantId: tenant.id,
    name: `listed key ${i}`,
    hint: 'ask_…list',
    secretDigest: randomBytes(32).toString('hex'),
    createdBy: adminUser.id,
  }));
  await services.database.db.insert(apiKeys).values(rows);
}
await services.flights.seed(SYSTEM_ACTOR, generateFlights(tenant.id, 2000, FLIGHTS_NOW));
// BENCH_HUNG_WEBHOOK=<url>: an endpoint that never answers, with 100 deliveries pending to it.
// Imported only then: bench/webhooks.ts brings the bench's own harness (autocannon, Playwright),
// some 40 MB of resident memory that `npm start` does not have.
if (process.env.BENCH_HUNG_WEBHOOK) {
  const { hungWebhook } = await import('./webhooks.ts');
  await hungWebhook(services, tenant.id, process.env.BENCH_HUNG_WEBHOOK);
}
const verdict = await services.keys.check.check(secret, 'setup');
if (!verdict.ok) throw new Error(`bench key rejected: ${verdict.reason}`);

// With /mcp, as `airkey serve` has it (its hooks are scoped to its own routes).
const app = await buildApp(services, { plugins: [mcpRoutes] });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const ready: AirkeyReady = {
  url: `http://127.0.0.1:${port}`,
  key: secret,
  tenantId: tenant.id,
  whoami: verdict.principal,
  email,
  password,
};
process.send?.(ready);
process.on(
  'disconnect',
  () =>
    void app
      .close()
      .then(() => services.close())
      .finally(() => process.exit(0)),
);
