import { eq } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants } from '../db/schema.ts';

export type TenantRow = typeof tenants.$inferSelect;

export class TenantRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Whether the database holds any tenant yet (first start creates the demo one). */
  async any(tx: Db = this.db): Promise<boolean> {
    return (await tx.select({ id: tenants.id }).from(tenants).limit(1)).length > 0;
  }

  async findBySlug(slug: string): Promise<TenantRow | undefined> {
    const [row] = await this.db.select().from(tenants).where(eq(tenants.slug, slug));
    return row;
  }

  async findById(id: string, tx: Db = this.db): Promise<TenantRow | undefined> {
    const [row] = await tx.select().from(tenants).where(eq(tenants.id, id));
    return row;
  }

  /** Locks the tenant row: serialises key creation so the per-tenant limit holds under races. */
  async lock(tx: Db, id: string): Promise<TenantRow | undefined> {
    const [row] = await tx.select().from(tenants).where(eq(tenants.id, id)).for('update');
    return row;
  }

  async insert(tx: Db, values: typeof tenants.$inferInsert): Promise<TenantRow> {
    const [row] = await tx.insert(tenants).values(values).returning();
    return row!;
  }

  async setSignInSettings(
    tx: Db,
    id: string,
    values: Pick<TenantRow, 'secondFactorRequired' | 'passwordSignIn' | 'oauthApps'>,
  ): Promise<void> {
    await tx.update(tenants).set(values).where(eq(tenants.id, id));
  }

  async setAuthority(tx: Db, id: string, authority: TenantRow['keyAuthority']): Promise<void> {
    await tx.update(tenants).set({ keyAuthority: authority }).where(eq(tenants.id, id));
  }
}
