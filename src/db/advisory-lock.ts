import { sql } from 'drizzle-orm';
import type { Db } from './handle.ts';

/**
 * Waits for the transaction-scoped advisory lock `id`, held until `tx` ends: of several instances
 * doing the same one-time work at once, one does it while the others wait, then see it done.
 */
export async function lockForTransaction(tx: Db, id: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${id})`);
}
