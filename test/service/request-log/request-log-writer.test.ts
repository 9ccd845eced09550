import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isDataRejected } from '../../../src/db/unavailable.ts';
import { asRows } from '../../../src/request-log/request-columns.ts';
import { RequestLogRepository } from '../../../src/request-log/request-log-repository.ts';
import { RequestLogWriter, type RequestBatch } from '../../../src/request-log/request-log-writer.ts';
import { rowsOf, type Harness } from '../../support/harness.ts';
import { logRowsAfterStop, recordFor } from '../../support/request-log-kit.ts';
import { useHarness } from '../../support/use.ts';

const quiet = { failed: () => {}, succeeded: () => {} };

async function countOf(h: Harness, keyId: string): Promise<number> {
  const { rows } = await rowsOf<{ n: number }>(
    h,
    sql`select count(*)::int as n from request_log_entries where key_id = ${keyId}::uuid`,
  );
  return rows[0]!.n;
}

/** The writer behind the requests (docs/request-log.md (Writing)): each request written exactly once. */
describe('request log writer', () => {
  const h = useHarness({ now: '2026-11-22T12:00:00Z' });

  it('writes a batch whose answer was lost exactly once when it is retried', async () => {
    const repository = new RequestLogRepository(h.services.database.db);
    let calls = 0;
    // The database commits the batch, then the answer never arrives: the writer must try again.
    const answerLost = {
      insert: async (batch: RequestBatch) => {
        await repository.insert(batch);
        if (++calls === 1) throw new Error('connection reset after commit');
      },
    };
    const writer = new RequestLogWriter({ store: answerLost, capacity: 100, intervalMs: 60_000, report: quiet });
    const keyId = randomUUID();
    for (let i = 0; i < 10; i++) writer.record(recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    await writer.flush();
    expect(writer.pending).toBe(10);
    await writer.flush();
    expect({ pending: writer.pending, written: writer.written, calls }).toEqual({ pending: 0, written: 10, calls: 2 });
    expect(await countOf(h, keyId)).toBe(10);
  });

  it('lets the event loop turn between the batches of a backlog, which PGlite alone never would', async () => {
    const repository = new RequestLogRepository(h.services.database.db);
    let turns = 0;
    const seen: number[] = [];
    const counting = {
      insert: async (batch: RequestBatch) => {
        seen.push(turns);
        await repository.insert(batch);
      },
    };
    const writer = new RequestLogWriter({
      store: counting,
      capacity: 10_000,
      intervalMs: 60_000,
      batchSize: 100,
      report: quiet,
    });
    const keyId = randomUUID();
    for (let i = 0; i < 500; i++) writer.record(recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    // Once per turn of the loop, after its poll phase (where a server reads its sockets).
    let looping = true;
    const turn = () => {
      turns += 1;
      if (looping) setImmediate(turn);
    };
    setImmediate(turn);
    await writer.flush();
    looping = false;
    expect(seen).toHaveLength(5);
    // Each batch after the first starts only after the loop has turned (a request could be read).
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
    expect(await countOf(h, keyId)).toBe(500);
  });

  it("forgets a batch's marker once it is a day old, and keeps a newer one", async () => {
    const repository = new RequestLogRepository(h.services.database.db);
    const [old, recent] = [randomUUID(), randomUUID()];
    await rowsOf(
      h,
      sql`insert into request_log_batches (id, written_at) values
        (${old}::uuid, now() - interval '25 hours'), (${recent}::uuid, now() - interval '23 hours')`,
    );
    await repository.forgetOldBatches();
    const { rows } = await rowsOf<{ id: string }>(
      h,
      sql`select id from request_log_batches where id in (${old}::uuid, ${recent}::uuid)`,
    );
    expect(rows.map((r) => r.id)).toEqual([recent]);
  });

  it('keeps a failed batch whole and ahead of newer records, and writes them all in batches', async () => {
    const repository = new RequestLogRepository(h.services.database.db);
    let down = true;
    const batches: number[] = [];
    const flaky = {
      insert: async (batch: RequestBatch) => {
        if (down) throw new Error('database unreachable');
        batches.push(batch.rows.end - batch.rows.start);
        await repository.insert(batch);
      },
    };
    const writer = new RequestLogWriter({
      store: flaky,
      capacity: 100,
      intervalMs: 60_000,
      batchSize: 4,
      report: quiet,
    });
    const keyId = randomUUID();
    for (let i = 0; i < 3; i++) writer.record(recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    await writer.flush();
    for (let i = 3; i < 9; i++) writer.record(recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    down = false;
    await writer.flush();
    // The failed batch of three goes again as it was (its marker is how a retry is known), then the six newer.
    expect(batches).toEqual([3, 4, 2]);
    expect(await countOf(h, keyId)).toBe(9);
  });

  it('retries only the failed one of batches written side by side, and writes each record once', async () => {
    const repository = new RequestLogRepository(h.services.database.db);
    let calls = 0;
    const secondFailsOnce = {
      insert: async (batch: RequestBatch) => {
        if (++calls === 2) throw new Error('one connection lost');
        await repository.insert(batch);
      },
    };
    const writer = new RequestLogWriter({
      store: secondFailsOnce,
      capacity: 100,
      intervalMs: 60_000,
      batchSize: 3,
      parallel: 2,
      report: quiet,
    });
    const keyId = randomUUID();
    // The sixth record fills a round of two batches: they go at once, and the second fails.
    for (let i = 0; i < 6; i++) writer.record(recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    await writer.flush();
    expect({ pending: writer.pending, written: writer.written, calls }).toEqual({ pending: 0, written: 6, calls: 3 });
    expect(await countOf(h, keyId)).toBe(6);
  });

  it('drops and counts a batch the database refuses for its values, and writes the batches behind it', async () => {
    const writer = new RequestLogWriter({
      store: new RequestLogRepository(h.services.database.db),
      capacity: 100,
      intervalMs: 60_000,
      batchSize: 2,
      report: quiet,
      isPermanent: isDataRejected,
    });
    const keyId = randomUUID();
    // PostgreSQL text cannot hold a NUL: that batch would fail on every retry.
    const poisoned = { ...recordFor(randomUUID(), h.clock.nowMs(), keyId), userAgent: 'probe\u0000' };
    writer.record(poisoned);
    writer.record(recordFor(randomUUID(), h.clock.nowMs() + 1, keyId));
    for (let i = 2; i < 5; i++) writer.record(recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    await writer.flush();
    expect({ pending: writer.pending, dropped: writer.dropped, written: writer.written }).toEqual({
      pending: 0,
      dropped: 2,
      written: 3,
    });
    expect(await countOf(h, keyId)).toBe(3);
  });

  it('holds at most its capacity and counts what it drops, the newest first', async () => {
    let down = true;
    const repository = new RequestLogRepository(h.services.database.db);
    const store = {
      insert: async (batch: RequestBatch) => {
        if (down) throw new Error('database unreachable');
        await repository.insert(batch);
      },
    };
    const writer = new RequestLogWriter({ store, capacity: 5, intervalMs: 60_000, report: quiet });
    const keyId = randomUUID();
    const records = Array.from({ length: 8 }, (_, i) => recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    for (const record of records) writer.record(record);
    await writer.flush();
    expect({ pending: writer.pending, dropped: writer.dropped }).toEqual({ pending: 5, dropped: 3 });
    down = false;
    await writer.flush();
    const { rows } = await rowsOf<{ id: string }>(
      h,
      sql`select id from request_log_entries where key_id = ${keyId}::uuid order by at`,
    );
    expect(rows.map((r) => r.id)).toEqual(records.slice(0, 5).map((r) => r.id));
  });

  it("takes a thread's chunk whole, in batches of equal size, and past its capacity drops the newest", async () => {
    const repository = new RequestLogRepository(h.services.database.db);
    const batches: number[] = [];
    const store = {
      insert: async (batch: RequestBatch) => {
        batches.push(batch.rows.end - batch.rows.start);
        await repository.insert(batch);
      },
    };
    const writer = new RequestLogWriter({ store, capacity: 9, intervalMs: 60_000, batchSize: 4, report: quiet });
    const keyId = randomUUID();
    const records = Array.from({ length: 11 }, (_, i) => recordFor(randomUUID(), h.clock.nowMs() + i, keyId));
    writer.take(asRows(records).chunk);
    expect({ pending: writer.pending, dropped: writer.dropped }).toEqual({ pending: 9, dropped: 2 });
    await writer.flush();
    // Nine rows at four a batch: three batches of three, never a batch of one at the end.
    expect(batches).toEqual([3, 3, 3]);
    const { rows } = await rowsOf<{ id: string }>(
      h,
      sql`select id from request_log_entries where key_id = ${keyId}::uuid order by at`,
    );
    expect(rows.map((r) => r.id)).toEqual(records.slice(0, 9).map((r) => r.id));
  });

  it('writes everything it holds when the services stop', async () => {
    const admin = await h.signedIn();
    const { api_key: key, secret } = await h.createKey(admin);
    expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
    expect(h.services.requestLog.writer!.pending).toBeGreaterThan(0);
    await h.services.requestLog.writer!.stop();
    expect(h.services.requestLog.writer!.pending).toBe(0);
    const rows = await logRowsAfterStop<{ n: number }>(
      h,
      sql`select count(*)::int as n from request_log_entries where key_id = ${key.id}::uuid`,
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});
