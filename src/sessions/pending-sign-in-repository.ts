import { eq, lt } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { pendingSignIns } from '../db/sign-in-tables.ts';

export type PendingSignIn = typeof pendingSignIns.$inferSelect;

/** Passwords accepted whose second factor is still owed (docs/sign-in.md (The second-factor step)). */
export class PendingSignInRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async insert(values: typeof pendingSignIns.$inferInsert): Promise<void> {
    await this.db.insert(pendingSignIns).values(values);
  }

  async find(tokenDigest: string): Promise<PendingSignIn | undefined> {
    const [row] = await this.db.select().from(pendingSignIns).where(eq(pendingSignIns.tokenDigest, tokenDigest));
    return row;
  }

  /** Taken by the step that completes it: true for exactly one of two racing completions. */
  async take(tx: Db, id: string): Promise<boolean> {
    const deleted = await tx
      .delete(pendingSignIns)
      .where(eq(pendingSignIns.id, id))
      .returning({ id: pendingSignIns.id });
    return deleted.length > 0;
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(pendingSignIns).where(lt(pendingSignIns.expiresAt, now));
  }
}
