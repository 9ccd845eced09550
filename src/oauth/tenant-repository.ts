import { eq } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants, users } from '../db/schema.ts';

import type { OAuthAppsSetting } from '../shared/oauth-apps.ts';

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

  /** Whether the person a grant acts as still exists (the provider asks before using a grant). */
  async userExists(userId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/.test(userId)) return false;
    return (await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId))).length === 1;
  }
}
