import { and, asc, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { sessions, tenants, users } from '../db/schema.ts';
import { pendingSignIns } from '../db/sign-in-tables.ts';
import type { UserWithTenant } from '../users/user-repository.ts';
import { factorColumns, type FactorFlags } from '../second-factors/factor-flags-repository.ts';
import type { SecondFactorRequirement } from '../shared/second-factor-requirement.ts';

export type SessionRow = typeof sessions.$inferSelect;

export type SessionWithUser = {
  session: SessionRow;
  user: UserWithTenant;
  requirement: SecondFactorRequirement;
  factors: FactorFlags;
};

/** The last request is written at most this often: a page's burst of requests costs one write. */
const LAST_SEEN_GRANULARITY_MS = 5_000;

/**
 * Sessions live in the database, so any instance serves any signed-in user, and deleting a row
 * ends that session on every instance at the commit: no cache to tell.
 */
export class SessionRepository {
  /** Every back-office request asks it, so it is built and (on PostgreSQL) planned once. */
  private readonly byToken;

  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
    this.byToken = db
      .select({
        session: sessions,
        user: users,
        tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name },
        requirement: tenants.secondFactorRequired,
        ...factorColumns,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(eq(sessions.tokenDigest, sql.placeholder('tokenDigest')))
      .limit(1)
      .prepare('session_with_user');
  }

  async insert(tx: Db, values: typeof sessions.$inferInsert): Promise<SessionRow> {
    const [row] = await tx.insert(sessions).values(values).returning();
    return row!;
  }

  /** The session of a cookie, live or not, with its user as they are now (one round trip). */
  async findWithUser(tokenDigest: string): Promise<SessionWithUser | undefined> {
    const [row] = await this.byToken.execute({ tokenDigest });
    if (!row) return undefined;
    return {
      session: row.session,
      user: { ...row.user, tenant: row.tenant },
      requirement: row.requirement,
      factors: { totp: row.totp, passkey: row.passkey, recoveryCodes: row.recoveryCodes },
    };
  }

  /** Notes a request for the idle limit; skipped when the last note is recent. */
  async touch(session: SessionRow, now: Date): Promise<void> {
    if (now.getTime() - session.lastSeenAt.getTime() < LAST_SEEN_GRANULARITY_MS) return;
    await this.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id));
  }

  /** A new cookie and CSRF token for the same session, freshly authenticated (re-authentication). */
  async renew(
    tx: Db,
    id: string,
    values: { tokenDigest: string; csrfToken: string; authenticatedAt: Date },
  ): Promise<SessionRow | undefined> {
    const [row] = await tx
      .update(sessions)
      .set({ ...values, lastSeenAt: values.authenticatedAt })
      .where(eq(sessions.id, id))
      .returning();
    return row;
  }

  async listForUser(userId: string): Promise<SessionRow[]> {
    return this.db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt));
  }

  async delete(tokenDigest: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenDigest, tokenDigest));
  }

  /** One session of a user's own; false when it is not theirs (or gone). */
  async deleteOfUser(tx: Db, userId: string, id: string): Promise<boolean> {
    const deleted = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.id, id)))
      .returning({ id: sessions.id });
    return deleted.length > 0;
  }

  /**
   * Every session of the tenant's users but one (the caller's own), and every pending sign-in of
   * theirs; returns how many sessions ended.
   */
  async deleteForTenant(tx: Db, tenantId: string, exceptId: string | null): Promise<number> {
    await tx
      .delete(pendingSignIns)
      .where(sql`${pendingSignIns.userId} in (select ${users.id} from ${users} where ${users.tenantId} = ${tenantId})`);
    const deleted = await tx
      .delete(sessions)
      .where(
        and(
          sql`${sessions.userId} in (select ${users.id} from ${users} where ${users.tenantId} = ${tenantId})`,
          exceptId === null ? undefined : ne(sessions.id, exceptId),
        ),
      )
      .returning({ id: sessions.id });
    return deleted.length;
  }

  /**
   * Housekeeping: ended sessions answer `session_expired` for a day, so a person coming back learns
   * why; after that the row goes and the cookie is simply unknown.
   */
  async deleteEndedBefore(idleCutoff: Date, absoluteCutoff: Date): Promise<void> {
    await this.db
      .delete(sessions)
      .where(or(lt(sessions.lastSeenAt, idleCutoff), lt(sessions.expiresAt, absoluteCutoff)));
  }
}
