import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { sessions, tenants, users } from '../db/schema.ts';
import type { UserWithTenant } from '../users/user-repository.ts';

export type SessionRow = typeof sessions.$inferSelect;

/** Sessions live in the database, so any instance can serve any signed-in user. */
export class SessionRepository {
  /** Every back-office request asks it, so it is built and (on PostgreSQL) planned once. */
  private readonly liveWithUser;

  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
    this.liveWithUser = db
      .select({
        csrfToken: sessions.csrfToken,
        user: users,
        tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name },
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(
        and(
          eq(sessions.tokenDigest, sql.placeholder('tokenDigest')),
          gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
        ),
      )
      .limit(1)
      .prepare('live_session_with_user');
  }

  async insert(tx: Db, values: typeof sessions.$inferInsert): Promise<void> {
    await tx.insert(sessions).values(values);
  }

  /** The live session and its user as they are now, in one round trip (every back-office request asks). */
  async findLiveWithUser(
    tokenDigest: string,
    now: Date,
  ): Promise<{ csrfToken: string; user: UserWithTenant } | undefined> {
    const [row] = await this.liveWithUser.execute({ tokenDigest, now: now.toISOString() });
    return row ? { csrfToken: row.csrfToken, user: { ...row.user, tenant: row.tenant } } : undefined;
  }

  async delete(tokenDigest: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenDigest, tokenDigest));
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, now));
  }
}
