import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { sessions, tenants, users } from '../db/schema.ts';
import { pendingSignIns } from '../db/sign-in-tables.ts';

export type UserRow = typeof users.$inferSelect;
export type UserWithTenant = UserRow & { tenant: { id: string; slug: string; name: string } };

export class UserRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async findByEmail(email: string, tx: Db = this.db): Promise<UserWithTenant | undefined> {
    return this.findOne(tx, eq(users.email, email.toLowerCase()));
  }

  async findById(id: string, tx: Db = this.db): Promise<UserWithTenant | undefined> {
    return this.findOne(tx, eq(users.id, id));
  }

  async findInTenant(tx: Db, tenantId: string, id: string): Promise<UserWithTenant | undefined> {
    return this.findOne(tx, and(eq(users.tenantId, tenantId), eq(users.id, id))!);
  }

  async listForTenant(tenantId: string): Promise<UserWithTenant[]> {
    const rows = await this.selectWithTenant(this.db).where(eq(users.tenantId, tenantId)).orderBy(asc(users.email));
    return rows.map(merge);
  }

  async insert(tx: Db, values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await tx
      .insert(users)
      .values({ ...values, email: values.email.toLowerCase() })
      .returning();
    return row!;
  }

  async update(tx: Db, id: string, values: Partial<Pick<UserRow, 'name' | 'roles' | 'passwordHash'>>): Promise<void> {
    await tx.update(users).set(values).where(eq(users.id, id));
  }

  async countWithRole(tx: Db, tenantId: string, role: string): Promise<number> {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), sql`${role} = any(${users.roles})`));
    return rows.length;
  }

  /**
   * Ends the user's sessions (all, or all but `exceptSessionId`, the one the change was made
   * through). Sessions are read from the database on every request, so this holds on every
   * instance from the commit. Its pending sign-ins (a password given, the second factor owed) end
   * too: whatever ended the sessions would otherwise leave a way in open for minutes. Returns how
   * many sessions ended.
   */
  async endSessions(tx: Db, userId: string, exceptSessionId: string | null = null): Promise<number> {
    await this.endPendingSignIns(tx, userId);
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), exceptSessionId === null ? undefined : ne(sessions.id, exceptSessionId)))
      .returning({ id: sessions.id });
    return ended.length;
  }

  /** The user's password sign-ins still waiting for their second factor. */
  async endPendingSignIns(tx: Db, userId: string): Promise<void> {
    await tx.delete(pendingSignIns).where(eq(pendingSignIns.userId, userId));
  }

  async delete(tx: Db, id: string): Promise<void> {
    await tx.delete(users).where(eq(users.id, id));
  }

  private async findOne(tx: Db, where: ReturnType<typeof eq>): Promise<UserWithTenant | undefined> {
    const [row] = await this.selectWithTenant(tx).where(where).limit(1);
    return row ? merge(row) : undefined;
  }

  private selectWithTenant(db: Db) {
    return db
      .select({ user: users, tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name } })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .$dynamic();
  }
}

function merge(row: { user: UserRow; tenant: UserWithTenant['tenant'] }): UserWithTenant {
  return { ...row.user, tenant: row.tenant };
}
