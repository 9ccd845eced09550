import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RequestColumns } from '../../src/request-log/request-columns.ts';
import { STORE_PAUSED, WorkerDrain } from '../../src/request-log/worker-drain.ts';
import { freshDataDir } from '../support/databases.ts';
import { recordFor } from '../support/request-log-kit.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');

/** docs/request-log.md (The embedded log): a store that fails to open is tried again after a pause that doubles. */
describe("the embedded log's store when it cannot open", () => {
  const dir = join(freshDataDir(), 'request-log');
  const failures: string[] = [];
  let written = 0;
  const drain = new WorkerDrain(
    { store: { pglite: dir }, intervalMs: 50, batchSize: 1_000, parallel: 1 },
    { failed: (error) => failures.push((error as Error).message), succeeded: () => written++ },
  );
  afterAll(() => drain.stop());

  it('tries again less and less often, fails what needs it at once, and writes once it opens', async () => {
    // A directory PGlite cannot start from: an unknown version of PostgreSQL.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'PG_VERSION'), '99\n');
    const tenantId = randomUUID();
    const columns = new RequestColumns(3);
    for (let i = 0; i < 3; i++) columns.append(recordFor(tenantId, NOW + i));
    drain.take(columns.take());

    const attempts = () => failures.filter((message) => !message.startsWith(STORE_PAUSED)).length;
    // Counted from the first attempt: a thread that starts slowly on a busy machine tries later.
    await expect.poll(attempts, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Retried every 50 ms it would be 20 or more; paused 50, 100, 200, 400, 800, 1,600 ms it is 7 at most.
    expect(attempts()).toBeGreaterThanOrEqual(2);
    expect(attempts()).toBeLessThanOrEqual(7);
    // The failures within a pause tried nothing.
    expect(failures.length).toBeGreaterThan(attempts());
    // A read fails (at once within a pause, or with the open's own error if the pause just ended).
    await expect(drain.ask({ type: 'sql', text: 'select 1', params: [] })).rejects.toThrow();
    expect(drain.state).toMatchObject({ pending: 3, dropped: 0 });

    // Fixed by hand: the next try opens a new store, and the entries held all along are written.
    rmSync(dir, { recursive: true });
    const opened = async () => {
      for (;;) {
        try {
          return await drain.ask({ type: 'maintain', nowMs: NOW, days: 30 });
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    await opened();
    await drain.flush();
    expect(drain.state).toMatchObject({ written: 3, pending: 0, dropped: 0 });
    expect(written).toBeGreaterThan(0);
    const answer = (await drain.ask({
      type: 'sql',
      text: 'select count(*)::int as n from request_log_entries where tenant_id = $1',
      params: [tenantId],
    })) as { rows: { n: number }[] };
    expect(answer.rows).toEqual([{ n: 3 }]);
  }, 60_000);
});
