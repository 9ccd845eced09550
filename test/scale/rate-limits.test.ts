import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { hammer, type Outcome } from '../support/hammer.ts';
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
 * A rate limit's exactness (docs/keys.md (Rate limits)) with real server processes on one PostgreSQL (the counts shared through
 * rate_limit_windows): never more than the limit per window summed over the instances, at least
 * 90% of it under demand above it, and an instance killed mid-window adds nothing.
 */

async function limitedKey(session: Session, on: Instance, requests: number, window: string) {
  const reply = await session.request(on, 'POST', '/backoffice/api/api-keys', {
    name: `limited ${requests}/${window}`,
    rate_limit: { requests, window },
  });
  if (reply.status !== 201) throw new Error(`create key: ${reply.status} ${JSON.stringify(reply.body)}`);
  const created = reply.body as { api_key: { id: string }; secret: string };
  return { id: created.api_key.id, secret: created.secret };
}

/** Accepted requests per window and instance; a request whose send and answer straddle a window edge is "ambiguous". */
function perWindow(outcomes: Outcome[], windowMs: number) {
  const table = new Map<number, Record<string, number>>();
  for (const o of outcomes) {
    if (o.status !== 200) continue;
    const window = Math.floor(o.sentMs / windowMs);
    const key = window === Math.floor(o.doneMs / windowMs) ? window : -1;
    const row = table.get(key) ?? {};
    row[o.on] = (row[o.on] ?? 0) + 1;
    table.set(key, row);
  }
  return table;
}

describe('rate limits across three processes on one PostgreSQL', () => {
  const instances: Instance[] = [];
  let sql: pg.Client;
  let session: Session;
  let release: () => Promise<void>;

  beforeAll(async () => {
    release = await takeTurn();
    const url = await freshPostgresUrl();
    sql = new pg.Client({ connectionString: url });
    await sql.connect();
    // One at a time: three start-ups at once on a small machine only slow each other down.
    for (const name of ['A', 'B', 'C']) instances.push(await startInstance(name, url));
    session = await signIn(instances[0]!, ADMIN.email);
  }, TURN_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    await sql?.end();
    await release?.();
  });

  async function storeUsed(keyId: string): Promise<Array<{ window: string; used: number }>> {
    const rows = await sql.query<{ window: Date; used: number }>(
      'select window_start as window, used from rate_limit_windows where key_id = $1 order by window_start',
      [keyId],
    );
    return rows.rows.map((row) => ({ window: row.window.toISOString(), used: row.used }));
  }

  it('accepts at most 300 and at least 270 of 1,500 requests in one minute, summed over three instances', async () => {
    const WINDOW_MS = 60_000;
    // The burst must fit in one window: start it in a fresh minute unless this one has room enough.
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 25_000) await sleep(left + 50);
    const key = await limitedKey(session, instances[0]!, 300, '1m');
    const windowStart = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
    const outcomes = (
      await Promise.all(instances.map((on) => hammer(on, key.secret, { count: 500, concurrency: 8 })))
    ).flat();
    const inWindow = outcomes.every((o) => o.sentMs >= windowStart && o.doneMs < windowStart + WINDOW_MS);
    expect(inWindow, 'the burst stayed inside one minute window').toBe(true);
    const statuses = new Map<number, number>();
    for (const o of outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    const accepted = statuses.get(200) ?? 0;
    const table = perWindow(outcomes, WINDOW_MS);
    console.log(
      `rate limit 300/1m, 1,500 requests over 3 instances, done +${Math.max(...outcomes.map((o) => o.doneMs)) - windowStart} ms into the window:` +
        ` accepted ${accepted} (${((accepted / 300) * 100).toFixed(1)}% of the limit),` +
        ` per instance ${JSON.stringify(table.get(windowStart / WINDOW_MS))}, statuses ${JSON.stringify(Object.fromEntries(statuses))},` +
        ` store used ${JSON.stringify(await storeUsed(key.id))}`,
    );
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect(accepted).toBeLessThanOrEqual(300);
    expect(accepted).toBeGreaterThanOrEqual(270);
    for (const row of await storeUsed(key.id)) expect(row.used).toBeLessThanOrEqual(300);
  }, 120_000);

  it('never accepts more than 20 in any second at 20 a second over 4 s, with one instance killed midway', async () => {
    const WINDOW_MS = 1_000;
    const key = await limitedKey(session, instances[0]!, 20, '1s');
    await sleep(WINDOW_MS - (Date.now() % WINDOW_MS));
    const startMs = Date.now();
    const untilMs = startMs + 4_000;
    const victim = instances[2]!;
    const killed = sleep(2_000 + 300).then(() => victim.stop('SIGKILL'));
    const outcomes = (
      await Promise.all(instances.map((on) => hammer(on, key.secret, { untilMs, concurrency: 4 })))
    ).flat();
    await killed;
    const table = perWindow(outcomes, WINDOW_MS);
    const store = await storeUsed(key.id);
    const lines = [...table.entries()]
      .sort(([a], [b]) => a - b)
      .map(([window, row]) => {
        const label = window === -1 ? 'straddling an edge' : new Date(window * WINDOW_MS).toISOString();
        const total = Object.values(row).reduce((sum, n) => sum + n, 0);
        return `  ${label}: ${total} accepted ${JSON.stringify(row)}`;
      });
    console.log(
      `rate limit 20/1s over 4 s, ${victim.name} killed (SIGKILL) at +2.3 s; ${outcomes.length} requests:\n` +
        `${lines.join('\n')}\n  store used per window: ${JSON.stringify(store)}`,
    );
    for (const [window, row] of table) {
      if (window === -1) continue;
      expect(Object.values(row).reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(20);
    }
    // What instances leased per window bounds what they accepted in it.
    expect(store.length).toBeGreaterThanOrEqual(4);
    for (const row of store) expect(row.used).toBeLessThanOrEqual(20);
    expect(outcomes.filter((o) => o.status === 200).length).toBeLessThanOrEqual(store.reduce((s, r) => s + r.used, 0));
    expect(outcomes.filter((o) => o.on !== victim.name).every((o) => o.status === 200 || o.status === 429)).toBe(true);
  }, 60_000);
});
