import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { recordFor } from '../support/request-log-kit.ts';
import { stoppablePostgres, type StoppablePostgres } from '../support/stoppable-postgres.ts';

const CAPACITY = 50;

/**
 * The database stopped under the request log (docs/request-log.md (Writing)): the buffer holds at
 * most REQUEST_LOG_BUFFER entries, the rest are dropped and counted, and once PostgreSQL is back
 * the buffer is written, nothing twice.
 */
describe('the request log while PostgreSQL is stopped', () => {
  let db: StoppablePostgres;
  let h: Harness;
  beforeAll(async () => {
    db = await stoppablePostgres();
    h = await createHarness({ config: { databaseUrl: db.url, logLevel: 'warn', requestLogBuffer: CAPACITY } });
  });
  afterAll(async () => {
    await h?.close().catch(() => {});
    await db?.remove();
  });

  const count = async (keyId: string) => {
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    try {
      const { rows } = await sql.query<{ n: number }>(
        'select count(*)::int as n from request_log_entries where key_id = $1',
        [keyId],
      );
      return rows[0]!.n;
    } finally {
      await sql.end();
    }
  };
  const droppedMetric = async () => {
    const text = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(/^airkey_request_log_dropped_total (\d+)$/m.exec(text)?.[1]);
  };

  it('fills the buffer to its bound, counts the drops, and writes the buffer when the database returns', async () => {
    const writer = h.services.requestLog.writer!;
    const keyId = randomUUID();
    const tenantId = randomUUID();
    writer.record(recordFor(tenantId, h.clock.nowMs(), keyId));
    await writer.flush();
    expect(await count(keyId)).toBe(1);

    await db.stopImmediately();
    // Recorded as the hook records after each response: an append, whatever the database does.
    for (let i = 0; i < CAPACITY + 30; i++) writer.record(recordFor(tenantId, h.clock.nowMs() + i, keyId));
    await writer.flush();
    expect({ pending: writer.pending, dropped: writer.dropped }).toEqual({ pending: CAPACITY, dropped: 30 });
    expect(await droppedMetric()).toBe(30);

    await db.start();
    // The pool's connections died with the server; the first tries may still fail on them.
    for (let attempt = 0; attempt < 20 && writer.pending > 0; attempt++) await writer.flush();
    expect(writer.pending).toBe(0);
    expect(await count(keyId)).toBe(1 + CAPACITY);
  });
});
