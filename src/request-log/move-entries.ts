import type { Db } from '../db/handle.ts';
import { EarlierEntriesRepository } from './earlier-entries-repository.ts';
import type { WorkerDrain } from './worker-drain.ts';

const BATCH = 1_000;

/**
 * The embedded engine's entries written before the log had a store of its own move there, once, a
 * batch at a time in the order of their ids. A batch is named by its first id and deleted from the
 * main database only once the store has it: a move cut short starts again with the same batch,
 * which the store's marker already knows, so nothing is written twice or lost.
 */
export async function moveEntriesToStore(db: Db, drain: Pick<WorkerDrain, 'ask'>): Promise<number> {
  const earlier = new EarlierEntriesRepository(db);
  let moved = 0;
  for (;;) {
    const records = await earlier.first(BATCH);
    if (records.length === 0) return moved;
    await drain.ask({ type: 'import', batch: { id: records[0]!.id, records } });
    await earlier.delete(records.map((record) => record.id));
    moved += records.length;
  }
}
