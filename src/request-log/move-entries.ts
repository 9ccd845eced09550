import type { Db } from '../db/handle.ts';
import { EarlierEntriesRepository, type MovePosition } from './earlier-entries-repository.ts';
import { asRows } from './request-columns.ts';
import type { WorkerDrain } from './worker-drain.ts';

const BATCH = 1_000;

/**
 * The embedded engine's entries written before the log had a store of its own move there, once, a
 * tenant at a time, newest first, a batch at a time. A batch is named by its first entry and
 * deleted from the main database only once the store has it: a move cut short starts again with
 * the same batch (the tenant's newest left), which the store's marker already knows, so nothing is
 * written twice or lost. The main database runs on the request thread: each read and delete is one
 * range of the tenant's index, never a scan of the table.
 */
export async function moveEntriesToStore(db: Db, drain: Pick<WorkerDrain, 'ask'>): Promise<number> {
  const earlier = new EarlierEntriesRepository(db);
  let moved = 0;
  let tenant = await earlier.nextTenant();
  let before: MovePosition | undefined;
  while (tenant !== undefined) {
    const read = await earlier.newest(tenant, BATCH, before);
    if (read === undefined) {
      [tenant, before] = [await earlier.nextTenant(tenant), undefined];
      continue;
    }
    const { records, newestAt, last } = read;
    await drain.ask({ type: 'import', batch: { id: records[0]!.id, rows: asRows(records) } });
    const ids = records.map((record) => record.id);
    await earlier.delete(tenant, ids, newestAt, last);
    moved += records.length;
    before = last;
  }
  return moved;
}
