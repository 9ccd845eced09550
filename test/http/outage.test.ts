import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Principal } from '../../src/shared/principal.ts';
import { ENGINES, type Engine } from '../support/databases.ts';
import { createHarness, type Harness } from '../support/harness.ts';
import { apiFrom, expectProblem } from '../support/problems.ts';
import { json, useFixture } from '../support/use.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Takes the database away for real: PGlite is closed under the running app; PostgreSQL refuses
 * new connections to the test database and its open ones are terminated.
 */
async function takeDatabaseDown(h: Harness, engine: Engine): Promise<() => Promise<void>> {
  if (engine === 'pglite') {
    await h.services.database.close();
    return async () => {};
  }
  const name = new URL(h.config.databaseUrl!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`alter database ${name} allow_connections false`);
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  );
  return async () => {
    await admin.query(`alter database ${name} allow_connections true`);
    await admin.end();
  };
}

describe.each(ENGINES)('the database goes down (%s)', (engine) => {
  // Closing after the outage may fail on the database taken away: what matters was asserted before.
  const h = useFixture(
    () => createHarness({ engine }),
    (harness) => harness.close().catch(() => {}),
  );
  let cached: string;
  let uncached: string;
  let bringBack: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const admin = await h.signedIn();
    cached = (await h.createKey(admin, { name: 'cached' })).secret;
    uncached = (await h.createKey(admin, { name: 'never used' })).secret;
    expect((await apiFrom(h, '10.5.0.1', cached, '/api/v1/whoami')).statusCode).toBe(200);
    bringBack = await takeDatabaseDown(h, engine);
    // PostgreSQL: wait until the change-feed listener has noticed its terminated connection (PGlite
    // closed in-process, nothing to notice).
    await waitFor(() => engine === 'pglite' || !h.services.changes.listening, {
      timeoutMs: 5_000,
      what: 'the listener to notice the outage',
    });
  });
  afterAll(async () => bringBack());

  it('answers an uncached key with 503 unavailable, never as an invalid key', async () => {
    for (let i = 0; i < 3; i++) {
      const body = expectProblem(await apiFrom(h, '10.5.0.2', uncached, '/api/v1/whoami'), 503, 'unavailable');
      expect(body.detail).not.toMatch(/ECONN|PGlite|terminat|allow_connections|pg_/i);
    }
  });

  it('keeps a cached key working on whoami', async () => {
    const response = await apiFrom(h, '10.5.0.1', cached, '/api/v1/whoami');
    expect(response.statusCode, response.body).toBe(200);
    expect(json<Principal>(response).key.name).toBe('cached');
  });

  it('reports a database read the API needs as 503, without SQL in the body', async () => {
    const response = await apiFrom(h, '10.5.0.1', cached, '/api/v1/flights');
    expectProblem(response, 503, 'unavailable');
  });

  it('past its lease keeps a cached key working only where no other process can revoke it: the embedded database; on PostgreSQL it answers 503', async () => {
    // PostgreSQL: wait for the lease (1 s, not renewable without the database) to run out; this
    // instance can then no longer vouch it heard every change (docs/keys.md (Revocation)). The
    // embedded database has no other writer, so its lease never ends.
    if (engine === 'pglite') expect(h.services.changes.leaseValidUntil).toBe(Number.POSITIVE_INFINITY);
    else
      await waitFor(() => performance.now() >= h.services.changes.leaseValidUntil, {
        timeoutMs: 5_000,
        what: 'the lease to run out',
      });
    const response = await apiFrom(h, '10.5.0.1', cached, '/api/v1/whoami');
    if (engine === 'pglite') expect(response.statusCode, response.body).toBe(200);
    else expectProblem(response, 503, 'unavailable');
  });

  it('says it is not ready', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(json<{ checks: Record<string, boolean> }>(response).checks.database).toBe(false);
    expect((await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
