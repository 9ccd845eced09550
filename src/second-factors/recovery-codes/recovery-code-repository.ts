import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { recoveryCodes } from '../../db/sign-in-tables.ts';

export type RecoveryCodeRow = typeof recoveryCodes.$inferSelect;

/** A user's unused recovery codes (argon2id hashes); a used code's row is deleted. */
export class RecoveryCodeRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async listForUser(userId: string): Promise<RecoveryCodeRow[]> {
    return this.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  }

  async count(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, userId));
    return row?.count ?? 0;
  }

  /** The old codes stop working in the same transaction that stores the new ones. */
  async replace(tx: Db, userId: string, codeHashes: readonly string[]): Promise<void> {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    if (codeHashes.length > 0)
      await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  }

  /** Uses a code up: true for exactly one of two instances given the same code at once. */
  async take(id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(recoveryCodes)
      .where(eq(recoveryCodes.id, id))
      .returning({ id: recoveryCodes.id });
    return deleted.length > 0;
  }
}
