import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { oauthRecords } from '../db/oauth-tables.ts';
import { tenants, users } from '../db/schema.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An access token's record as stored, with whether its grant still exists. */
export type StoredAccessToken = {
  grantId: string;
  clientId: string;
  accountId: string;
  audience: string;
  expiresAt: Date;
};

/** The resource side's reads of the authorization server's records (docs/oauth.md): on a cache miss only. */
export class AccessTokenRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * The live access token with this digest whose grant still exists, or null. Revoking a grant
   * deletes its tokens with it; the grant's own row is checked too, so a token left by a partial
   * revocation is no use either.
   */
  async findToken(digest: string): Promise<StoredAccessToken | null> {
    const [row] = await this.db
      .select({ payload: oauthRecords.payload, grantId: oauthRecords.grantId, expiresAt: oauthRecords.expiresAt })
      .from(oauthRecords)
      .where(
        and(
          eq(oauthRecords.kind, 'AccessToken'),
          eq(oauthRecords.idDigest, digest),
          sql`exists (select 1 from oauth_records g where g.kind = 'Grant' and g.grant_id = ${oauthRecords.grantId})`,
        ),
      );
    if (!row?.grantId || !row.expiresAt) return null;
    const { accountId, clientId, aud } = row.payload as { accountId?: unknown; clientId?: unknown; aud?: unknown };
    if (typeof accountId !== 'string' || typeof clientId !== 'string' || typeof aud !== 'string') return null;
    return { grantId: row.grantId, clientId, accountId, audience: aud, expiresAt: row.expiresAt };
  }

  /** The person a token acts as and their tenant, now; undefined once the person is deleted. */
  async findPerson(userId: string) {
    if (!UUID.test(userId)) return undefined;
    const [row] = await this.db
      .select({
        id: users.id,
        email: users.email,
        roles: users.roles,
        tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name },
      })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(eq(users.id, userId));
    return row;
  }
}
