import { and, asc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { passkeys, webauthnChallenges } from '../../db/sign-in-tables.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengePurpose = 'sign_in' | 'second_factor' | 'reauthenticate' | 'register';
export type ChallengeRow = typeof webauthnChallenges.$inferSelect;

/** Passkeys (public keys and counters) and the challenges handed out for them. */
export class PasskeyRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async listForUser(userId: string): Promise<PasskeyRow[]> {
    return this.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
  }

  async findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await this.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
    return row;
  }

  async insert(tx: Db, values: typeof passkeys.$inferInsert): Promise<PasskeyRow> {
    const [row] = await tx.insert(passkeys).values(values).returning();
    return row!;
  }

  async recordUse(id: string, counter: number, backedUp: boolean, now: Date): Promise<void> {
    await this.db.update(passkeys).set({ counter, backedUp, lastUsedAt: now }).where(eq(passkeys.id, id));
  }

  async delete(tx: Db, userId: string, id: string): Promise<PasskeyRow | undefined> {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
      .returning();
    return row;
  }

  async deleteAll(tx: Db, userId: string): Promise<void> {
    await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  }

  async saveChallenge(values: typeof webauthnChallenges.$inferInsert): Promise<void> {
    await this.db.insert(webauthnChallenges).values(values);
  }

  /** A challenge is answered once: whoever takes it first has it, a replay finds nothing. */
  async takeChallenge(challenge: string): Promise<ChallengeRow | undefined> {
    const [row] = await this.db
      .delete(webauthnChallenges)
      .where(eq(webauthnChallenges.challenge, challenge))
      .returning();
    return row;
  }

  async deleteExpiredChallenges(now: Date): Promise<void> {
    await this.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  }
}
