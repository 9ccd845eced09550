import pg from 'pg';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WorkerDrain } from '../../src/request-log/worker-drain.ts';
import { ENGINES } from '../support/databases.ts';
import { logRowsOf, type Harness } from '../support/harness.ts';
import { logRowsAfterStop } from '../support/request-log-kit.ts';
import { useHarness } from '../support/use.ts';

const CAPACITY = 20;

async function countOf(h: Harness, keyId: string): Promise<number> {
  const { rows } = await logRowsOf<{ n: number }>(
    h,
    sql`select count(*)::int as n from request_log_entries where key_id = ${keyId}::uuid`,
  );
  return rows[0]!.n;
}

async function droppedMetric(h: Harness): Promise<number> {
  const text = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
  return Number(/^airkey_request_log_dropped_total (\d+)$/m.exec(text)?.[1]);
}

async function whoamis(h: Harness, secret: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await h.api(secret, '/api/v1/whoami')).statusCode);
  return statuses;
}

/**
 * The log's writer failing under the requests (docs/request-log.md (Writing)): a store that refuses
 * writes or a writer thread that dies costs log entries, counted as dropped, never a request.
 */
describe.each(ENGINES)('the request log when its store refuses writes (%s)', (engine) => {
  const h = useHarness({ engine, now: '2026-11-22T12:00:00Z', config: { requestLogBuffer: CAPACITY } });

  it('answers every request while the store refuses, drops past the bound, and writes the rest once it accepts', async () => {
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin);
    const writer = h.services.requestLog.writer!;
    await logRowsOf(h, sql`alter table request_log_blocks rename to request_log_away`);
    try {
      expect(await whoamis(h, secret, CAPACITY + 10)).toEqual(Array<number>(CAPACITY + 10).fill(200));
      await writer.flush();
      expect({ pending: writer.pending, dropped: writer.dropped }).toEqual({ pending: CAPACITY, dropped: 10 });
      expect(await droppedMetric(h)).toBe(10);
    } finally {
      await logRowsOf(h, sql`alter table request_log_away rename to request_log_blocks`);
    }
    await writer.flush();
    expect(writer.pending).toBe(0);
    expect(await countOf(h, key.id)).toBe(CAPACITY);
  });

  it('writes everything it holds when the services stop', async () => {
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin);
    expect(await whoamis(h, secret, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(h.services.requestLog.writer!.pending).toBe(5);
    await h.services.requestLog.writer!.stop();
    expect(h.services.requestLog.writer!.pending).toBe(0);
    const rows = await logRowsAfterStop<{ n: number }>(
      h,
      sql`select count(*)::int as n from request_log_entries where key_id = ${key.id}::uuid`,
    );
    expect(rows).toEqual([{ n: 5 }]);
  });
});

describe('the request log when its writer thread dies (postgres)', () => {
  const h = useHarness({ engine: 'postgres', now: '2026-11-22T12:00:00Z' });

  it('answers every request, counts what the dead thread held as dropped, and writes again with a new one', async () => {
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin);
    const writer = h.services.requestLog.writer!;
    const drain = writer.drain;
    if (!(drain instanceof WorkerDrain)) throw new Error('PostgreSQL writes from a worker thread');
    expect(await whoamis(h, secret, 3)).toEqual([200, 200, 200]);
    await writer.flush();
    expect(await countOf(h, key.id)).toBe(3);

    // The worker's next statement waits on this lock: it holds five entries when it dies.
    const locker = new pg.Client({ connectionString: h.config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table request_log_blocks in access exclusive mode');
      expect(await whoamis(h, secret, 5)).toEqual([200, 200, 200, 200, 200]);
      const handedOver = writer.flush();
      expect(writer.pending).toBe(5);
      // Its statement is with the database, waiting for the lock, when the thread dies.
      await expect
        .poll(async () => {
          const { rows } = await locker.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%request_log_batches%'`,
          );
          return rows[0]!.n;
        })
        .toBe(1);
      await drain.thread!.terminate();
      await handedOver;
      expect({ pending: writer.pending, dropped: writer.dropped }).toEqual({ pending: 0, dropped: 5 });
      expect(await droppedMetric(h)).toBe(5);
      expect(await whoamis(h, secret, 2)).toEqual([200, 200]);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    await writer.flush();
    expect(drain.thread).toBeDefined();
    expect(writer.dropped).toBe(5);
    // The database still ran the dead thread's statement once the lock was gone: its five entries
    // are written, once, and counted as dropped all the same (a count, never a second write).
    expect(await countOf(h, key.id)).toBe(3 + 5 + 2);
  });
});

describe('the request log when its store thread dies (pglite)', () => {
  const h = useHarness({ engine: 'pglite', now: '2026-11-22T12:00:00Z' });

  it('answers every request, counts what the dead thread held as dropped, and opens the store again', async () => {
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin);
    const writer = h.services.requestLog.writer!;
    const drain = writer.drain;
    if (!(drain instanceof WorkerDrain)) throw new Error("the embedded log's store lives in a worker thread");
    expect(await whoamis(h, secret, 3)).toEqual([200, 200, 200]);
    await writer.flush();
    expect(await countOf(h, key.id)).toBe(3);

    // The store refuses the next five, so the thread holds them when it dies.
    await logRowsOf(h, sql`alter table request_log_blocks rename to request_log_away`);
    try {
      expect(await whoamis(h, secret, 5)).toEqual([200, 200, 200, 200, 200]);
      await writer.flush();
      expect(writer.pending).toBe(5);
      await drain.thread!.terminate();
      expect({ pending: writer.pending, dropped: writer.dropped }).toEqual({ pending: 0, dropped: 5 });
      expect(await droppedMetric(h)).toBe(5);
      expect(await whoamis(h, secret, 2)).toEqual([200, 200]);
    } finally {
      // A new thread opens the store from its directory, the killed one's writes recovered.
      await logRowsOf(h, sql`alter table request_log_away rename to request_log_blocks`);
    }
    await writer.flush();
    expect(drain.thread).toBeDefined();
    expect(writer.dropped).toBe(5);
    expect(await countOf(h, key.id)).toBe(5);
  });
});
