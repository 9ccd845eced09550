import { and, desc, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { oauthRecords } from '../db/oauth-tables.ts';
import { users } from '../db/schema.ts';

export type GrantRow = {
  id: string;
  clientId: string;
  appName: string | null;
  resources: Record<string, unknown> | null;
  userId: string;
  email: string;
  approvedAt: number;
  lastUsedAt: Date | null;
};

/**
 * Grants as the back office sees them: each belongs to the tenant of the person it acts as (the
 * provider keeps that person's id in the grant's payload), so a grant is listed and found only
 * through its person's tenant.
 */
export class OAuthGrantRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  list(tenantId: string, now: Date, userId?: string): Promise<GrantRow[]> {
    return this.query(and(eq(users.tenantId, tenantId), userId ? eq(users.id, userId) : undefined), now);
  }

  async find(tenantId: string, grantId: string, now: Date): Promise<GrantRow | undefined> {
    const [row] = await this.query(and(eq(users.tenantId, tenantId), eq(oauthRecords.grantId, grantId)), now);
    return row;
  }

  /** The grant, its codes and its tokens: one statement, inside the caller's transaction. */
  async destroy(tx: Db, grantId: string): Promise<void> {
    await tx.delete(oauthRecords).where(eq(oauthRecords.grantId, grantId));
  }

  /** The tenant of the person a grant acted as (for the audit of a revocation the provider made). */
  async tenantOf(userId: string): Promise<{ tenantId: string; email: string } | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(userId)) return undefined;
    const [row] = await this.db
      .select({ tenantId: users.tenantId, email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  private query(where: SQL | undefined, now: Date): Promise<GrantRow[]> {
    return this.db
      .select({
        id: sql<string>`${oauthRecords.grantId}`,
        clientId: sql<string>`${oauthRecords.payload}->>'clientId'`,
        appName: oauthRecords.appName,
        resources: sql<Record<string, unknown> | null>`${oauthRecords.payload}->'resources'`,
        userId: users.id,
        email: users.email,
        approvedAt: sql<number>`(${oauthRecords.payload}->>'iat')::bigint`,
        lastUsedAt: oauthRecords.lastUsedAt,
      })
      .from(oauthRecords)
      .innerJoin(users, sql`${users.id}::text = ${oauthRecords.payload}->>'accountId'`)
      .where(
        and(eq(oauthRecords.kind, 'Grant'), or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, now)), where),
      )
      .orderBy(desc(sql`(${oauthRecords.payload}->>'iat')::bigint`));
  }
}
