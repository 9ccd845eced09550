import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, migratedDataDir } from '../support/databases.ts';
import { hammer, statusCounts, type Outcome } from '../support/hammer.ts';
import {
  ADMIN,
  signIn,
  startInstance,
  takeTurn,
  TURN_TIMEOUT_MS,
  type Instance,
  type Session,
} from '../support/instances.ts';

/**
 * A quota's exactness (docs/keys.md (Quotas)) with real server processes: never more than the quota in a period, summed
 * over instances, across kill -9 and restarts, in both modes; at least 99% of it usable; a lowered
 * quota and a reset hold on every instance from their responses.
 */

async function meteredKey(session: Session, on: Instance, quota: { requests: number; period: string }) {
  const reply = await session.request<{ api_key: { id: string }; secret: string }>(
    on,
    'POST',
    '/backoffice/api/api-keys',
    {
      name: `quota ${quota.requests}/${quota.period}`,
      quota,
    },
  );
  if (reply.status !== 201) throw new Error(`create key: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.api_key.id, secret: reply.body.secret };
}

/** Flushes often, so the view's `used` (as of the last flush) settles within a test. */
const FLUSH = { USAGE_FLUSH_MS: '200' };
/** How long the view may take to show a flush everywhere: many flushes over, polled, not slept. */
const SETTLED = { timeout: 10_000, interval: 100 };

/** The key's `used` as the back office shows it. */
async function usedOf(session: Session, on: Instance, keyId: string): Promise<number | undefined> {
  const reply = await session.request<{ data: { id: string; quota: { used: number } | null }[] }>(
    on,
    'GET',
    '/backoffice/api/api-keys',
  );
  return reply.body.data.find((k) => k.id === keyId)?.quota?.used;
}

/**
 * A day quota must not roll over mid-test: the instances run on a clock set to noon UTC of today
 * (the same shift for all three, so they agree as real instances do), half a day from either midnight.
 */
const DAY_MS = 86_400_000;
const CLOCK_SHIFT = { AIRKEY_TEST_CLOCK_SHIFT_MS: String(DAY_MS / 2 - (Date.now() % DAY_MS)) };
const startOnClock = (name: string, url: string) =>
  startInstance(name, url, { ...FLUSH, ...CLOCK_SHIFT }, [], 'test/support/serve-on-clock.ts');

describe('quotas across three processes on one PostgreSQL', () => {
  const instances: Instance[] = [];
  let url: string;
  let sql: pg.Client;
  let session: Session;
  let release: () => Promise<void>;

  beforeAll(async () => {
    release = await takeTurn();
    url = await freshPostgresUrl();
    sql = new pg.Client({ connectionString: url });
    await sql.connect();
    for (const name of ['A', 'B', 'C']) instances.push(await startOnClock(name, url));
    session = await signIn(instances[0]!, ADMIN.email);
  }, TURN_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    await sql?.end();
    await release?.();
  });

  const leased = async (keyId: string) =>
    (await sql.query<{ used: number }>('select used from quota_periods where key_id = $1', [keyId])).rows.map(
      (r) => r.used,
    );

  it('accepts at most 500 and at least 495 of 2,000 requests, with one instance killed (SIGKILL) and restarted midway', async () => {
    const key = await meteredKey(session, instances[0]!, { requests: 500, period: 'day' });
    const [a, b, c] = instances as [Instance, Instance, Instance];
    // Phase 1: 240 requests to each instance; C dies once it has answered 100 of them.
    let cAnswered = 0;
    const victim = hammer(c, key.secret, { count: 240, concurrency: 4, stop: () => ++cAnswered > 100 });
    const first = await Promise.all([
      hammer(a, key.secret, { count: 240, concurrency: 4 }),
      hammer(b, key.secret, { count: 240, concurrency: 4 }),
      victim.then(async (outcomes) => (await c.stop('SIGKILL'), outcomes)),
    ]);
    const restarted = await startOnClock('C2', url);
    instances[2] = restarted;
    // What C accepted and never reported, and what it held, count as used: never less than accepted.
    const acceptedFirst = first.flat().filter((o) => o.status === 200).length;
    await expect.poll(() => usedOf(session, a, key.id), SETTLED).toBeGreaterThanOrEqual(acceptedFirst);
    const usedAfterCrash = await usedOf(session, a, key.id);
    expect(usedAfterCrash).toBeLessThanOrEqual(Math.max(...(await leased(key.id))));
    // Phase 2: the rest of the 2,000, over A, B and the restarted C.
    const sentSoFar = first.flat().length;
    const each = Math.ceil((2_000 - sentSoFar) / 3);
    const second = await Promise.all(
      [a, b, restarted].map((on) => hammer(on, key.secret, { count: each, concurrency: 4 })),
    );
    const outcomes: Outcome[] = [...first.flat(), ...second.flat()];
    const accepted = outcomes.filter((o) => o.status === 200);
    const perInstance: Record<string, number> = {};
    for (const o of accepted) perInstance[o.on] = (perInstance[o.on] ?? 0) + 1;
    console.log(
      `quota 500/day, ${outcomes.length} requests over 3 instances, C killed after ~100 answers and restarted:` +
        ` accepted ${accepted.length} (${((accepted.length / 500) * 100).toFixed(1)}%), per instance ${JSON.stringify(perInstance)},` +
        ` statuses ${JSON.stringify(statusCounts(outcomes))}, leased ${JSON.stringify(await leased(key.id))}`,
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(2_000);
    expect(Object.keys(statusCounts(outcomes)).map(Number).sort()).toEqual([200, 429]);
    expect(accepted.length).toBeLessThanOrEqual(500);
    expect(accepted.length).toBeGreaterThanOrEqual(495);
    for (const used of await leased(key.id)) expect(used).toBeLessThanOrEqual(500);
    // Used up and refusing on every instance: the view says so, whatever C took with it.
    for (const on of [a, b, restarted]) await expect.poll(() => usedOf(session, on, key.id), SETTLED).toBe(500);
  }, 240_000);

  it('refuses on every instance from the response that lowers a quota below its use, and re-opens on all from a reset', async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const key = await meteredKey(session, a, { requests: 1_000, period: 'day' });
    for (const on of instances) await hammer(on, key.secret, { count: 5, concurrency: 1 });
    const lowered = await session.request(b, 'PATCH', `/backoffice/api/api-keys/${key.id}`, {
      quota: { requests: 10, period: 'day' },
    });
    expect(lowered.status).toBe(200);
    for (const on of [a, b, c])
      expect(statusCounts(await hammer(on, key.secret, { count: 3, concurrency: 1 }))).toEqual({ 429: 3 });
    const reset = await session.request(c, 'POST', `/backoffice/api/api-keys/${key.id}/quota/reset`);
    expect(reset.status).toBe(200);
    for (const on of [a, b, c])
      expect(statusCounts(await hammer(on, key.secret, { count: 3, concurrency: 1 }))).toEqual({ 200: 3 });
    // 9 accepted since the reset; one more on any instance, then none.
    expect(statusCounts(await hammer(a, key.secret, { count: 3, concurrency: 1 }))).toEqual({ 200: 1, 429: 2 });
  }, 120_000);
});

describe('a total quota in the embedded mode, across kill -9', () => {
  let server: Instance | undefined;
  let release: () => Promise<void>;
  beforeAll(async () => {
    release = await takeTurn();
  }, TURN_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await release?.();
  });

  it('keeps what was used in its database: 60 used, killed, restarted, then exactly 40 more', async () => {
    const dataDir = migratedDataDir();
    server = await startInstance('embedded', undefined, { DATA_DIR: dataDir });
    const session = await signIn(server, ADMIN.email);
    const key = await meteredKey(session, server, { requests: 100, period: 'total' });
    expect(statusCounts(await hammer(server, key.secret, { count: 60, concurrency: 1 }))).toEqual({ 200: 60 });
    await server.stop('SIGKILL');
    server = await startInstance('embedded again', undefined, { DATA_DIR: dataDir });
    // Killed before any flush: the 60 it accepted are used all the same.
    expect(await usedOf(await signIn(server, ADMIN.email), server, key.id)).toBe(60);
    const after = statusCounts(await hammer(server, key.secret, { count: 100, concurrency: 4 }));
    console.log(`total quota 100, embedded: 60 used, kill -9, restart, then 100 requests: ${JSON.stringify(after)}`);
    expect(after).toEqual({ 200: 40, 429: 60 });
    expect(await usedOf(await signIn(server, ADMIN.email), server, key.id)).toBe(100);
  }, 180_000);
});
