import { eq } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants } from '../db/schema.ts';

export type TenantRow = typeof tenants.$inferSelect;

export class TenantRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
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

  async setAuthority(tx: Db, id: string, authority: TenantRow['keyAuthority']): Promise<void> {
    await tx.update(tenants).set({ keyAuthority: authority }).where(eq(tenants.id, id));
  }
}
