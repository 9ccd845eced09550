import { eq } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants } from '../db/schema.ts';

export const OAUTH_APPS_SETTINGS = ['off', 'key_managers', 'everyone'] as const;
export type OAuthAppsSetting = (typeof OAUTH_APPS_SETTINGS)[number];

export type ConsentTenant = { id: string; slug: string; name: string; oauthApps: OAuthAppsSetting };

/** The tenant facts the consent page shows and decides on. */
export class OAuthTenantRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async find(tenantId: string): Promise<ConsentTenant | undefined> {
    const [row] = await this.db
      .select({ id: tenants.id, slug: tenants.slug, name: tenants.name, oauthApps: tenants.oauthApps })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    return row;
  }

  async setOAuthApps(tenantId: string, value: OAuthAppsSetting): Promise<void> {
    await this.db.update(tenants).set({ oauthApps: value }).where(eq(tenants.id, tenantId));
  }
}
