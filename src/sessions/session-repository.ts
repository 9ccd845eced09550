import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { sessions } from '../db/schema.ts';

export type SessionRow = typeof sessions.$inferSelect;

/** Sessions live in the database, so any instance can serve any signed-in user. */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(values: typeof sessions.$inferInsert): Promise<void> {
    await this.db.insert(sessions).values(values);
  }

  async findLive(tokenDigest: string, now: Date): Promise<SessionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tokenDigest, tokenDigest), gt(sessions.expiresAt, now)));
    return row;
  }

  async delete(tokenDigest: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenDigest, tokenDigest));
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, now));
  }
}
