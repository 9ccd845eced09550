import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import { moveEntriesToStore } from '../../../src/request-log/move-entries.ts';
import { RequestLogPartitions } from '../../../src/request-log/request-log-partitions.ts';
import { WorkerDrain } from '../../../src/request-log/worker-drain.ts';
import type { NamedRecord } from '../../../src/request-log/request-record.ts';
import { ManualClock } from '../../support/manual-clock.ts';
import { freshDataDir } from '../../support/databases.ts';
import { logRowsOf, rowsOf, type Harness } from '../../support/harness.ts';
import { recordFor } from '../../support/request-log-kit.ts';
import { insertRows } from '../../support/request-log-rows.ts';
import { useHarness } from '../../support/use.ts';
import { asRows } from '../../../src/request-log/request-columns.ts';

const NOW = '2026-11-22T12:00:00Z';

async function counts(h: Harness, keyId: string) {
  const count = (table: 'request_log' | 'request_log_entries') =>
    sql`select count(*)::int as n, count(distinct id)::int as ids from ${sql.raw(table)} where key_id = ${keyId}::uuid`;
  const [main] = (await rowsOf<{ n: number }>(h, count('request_log'))).rows;
  const [store] = (await logRowsOf<{ n: number; ids: number }>(h, count('request_log_entries'))).rows;
  return { main: main!.n, store: store! };
}

// One tenant's entries, a millisecond apart, oldest first.
const entries = (keyId: string, n: number, tenantId = randomUUID()): NamedRecord[] =>
  Array.from({ length: n }, (_, i) => recordFor(tenantId, Date.parse(NOW) - 60_000 + i, keyId));

/** Entries an earlier version wrote to the embedded main database move to the log's own store (docs/request-log.md). */
describe("the embedded log's entries from before it had a store of its own", () => {
  // A data directory as an earlier version left it: 1,200 entries of three tenants in the main database's log.
  const dataDir = freshDataDir();
  const before = randomUUID();
  beforeAll(async () => {
    const main = await openDatabase({ dataDir });
    try {
      await new RequestLogPartitions({ db: main.db, clock: new ManualClock(new Date(NOW)), days: 30 }).maintain();
      const records = [...entries(before, 1_050), ...entries(before, 100), ...entries(before, 50)];
      await insertRows(main.db, records);
    } finally {
      await main.close();
    }
  });
  // Registered after the hook above, so it opens the directory that hook filled.
  const h = useHarness({ engine: 'pglite', now: NOW, config: { dataDir } });

  it('moves them all at start, each once', async () => {
    await expect
      .poll(() => counts(h, before), { timeout: 30_000 })
      .toEqual({ main: 0, store: { n: 1_200, ids: 1_200 } });
  });

  it('writes nothing twice when a move cut short runs again', async () => {
    const drain = h.services.requestLog.writer!.drain;
    if (!(drain instanceof WorkerDrain)) throw new Error("the embedded log's store lives in a worker thread");
    const keyId = randomUUID();
    const records = entries(keyId, 2_500);
    await insertRows(h.services.database.db, records);
    // The first batch (the tenant's newest 1,000) reached the store, and then the process stopped
    // before deleting it here.
    const first = records.slice(-1_000).reverse();
    await drain.ask({ type: 'import', batch: { id: first[0]!.id, rows: asRows(first) } });

    expect(await moveEntriesToStore(h.services.database.db, drain)).toBe(2_500);
    expect(await counts(h, keyId)).toEqual({ main: 0, store: { n: 2_500, ids: 2_500 } });
  });
});
