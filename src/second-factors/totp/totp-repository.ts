import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { totpFactors } from '../../db/sign-in-tables.ts';

export type TotpRow = typeof totpFactors.$inferSelect;

/** Authenticator-app secrets, sealed; the last step accepted, so each code works once on every instance. */
export class TotpRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async find(userId: string, tx: Db = this.db): Promise<TotpRow | undefined> {
    const [row] = await tx.select().from(totpFactors).where(eq(totpFactors.userId, userId));
    return row;
  }

  /** A new secret waits beside the one in use (if any) until a code from it confirms it. */
  async savePending(tx: Db, userId: string, pendingSecretSealed: string): Promise<void> {
    await tx
      .insert(totpFactors)
      .values({ userId, pendingSecretSealed })
      .onConflictDoUpdate({ target: totpFactors.userId, set: { pendingSecretSealed } });
  }

  /** The pending secret becomes the one in use; the code that confirmed it counts as used. */
  async confirmPending(tx: Db, userId: string, step: number, now: Date): Promise<boolean> {
    const updated = await tx
      .update(totpFactors)
      .set({
        secretSealed: totpFactors.pendingSecretSealed,
        pendingSecretSealed: null,
        confirmedAt: now,
        lastStep: step,
      })
      .where(and(eq(totpFactors.userId, userId), sql`${totpFactors.pendingSecretSealed} is not null`))
      .returning({ userId: totpFactors.userId });
    return updated.length > 0;
  }

  /**
   * Records `step` as used, only if it is later than the last step used: one conditional write,
   * so two instances given the same code accept it once between them.
   */
  async takeStep(userId: string, step: number): Promise<boolean> {
    const updated = await this.db
      .update(totpFactors)
      .set({ lastStep: step })
      .where(
        and(
          eq(totpFactors.userId, userId),
          sql`${totpFactors.secretSealed} is not null`,
          or(isNull(totpFactors.lastStep), lt(totpFactors.lastStep, step)),
        ),
      )
      .returning({ userId: totpFactors.userId });
    return updated.length > 0;
  }

  async delete(tx: Db, userId: string): Promise<boolean> {
    const deleted = await tx
      .delete(totpFactors)
      .where(and(eq(totpFactors.userId, userId), sql`${totpFactors.secretSealed} is not null`))
      .returning({ userId: totpFactors.userId });
    return deleted.length > 0;
  }

  /** Removes everything, confirmed or pending (a reset of lost factors). */
  async deleteAll(tx: Db, userId: string): Promise<void> {
    await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
  }
}
