import { createHash } from 'node:crypto';
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { textArrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import { oauthRecords } from '../db/oauth-tables.ts';

export type OAuthRecord = {
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  expiresAt: Date | null;
  consumedAt: Date | null;
};

/** Hex SHA-256: the form in which every id (a token, a code, a session cookie) is stored. */
export function digestOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** The only place with SQL for the authorization server's records. */
export class OAuthRecordRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async save(kind: string, id: string, record: Omit<OAuthRecord, 'consumedAt'>): Promise<void> {
    const values = { ...record, kind, idDigest: digestOf(id) };
    await this.db
      .insert(oauthRecords)
      .values(values)
      .onConflictDoUpdate({
        target: [oauthRecords.kind, oauthRecords.idDigest],
        set: { payload: record.payload, grantId: record.grantId, uid: record.uid, expiresAt: record.expiresAt },
      });
  }

  async find(kind: string, id: string): Promise<OAuthRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(oauthRecords)
      .where(and(eq(oauthRecords.kind, kind), eq(oauthRecords.idDigest, digestOf(id))));
    return row;
  }

  async findByUid(kind: string, uid: string): Promise<(OAuthRecord & { idDigest: string }) | undefined> {
    const [row] = await this.db
      .select()
      .from(oauthRecords)
      .where(and(eq(oauthRecords.kind, kind), eq(oauthRecords.uid, uid)))
      .limit(1);
    return row;
  }

  async consume(kind: string, id: string, at: Date): Promise<void> {
    await this.db
      .update(oauthRecords)
      .set({ consumedAt: at })
      .where(and(eq(oauthRecords.kind, kind), eq(oauthRecords.idDigest, digestOf(id))));
  }

  async destroy(kind: string, id: string): Promise<void> {
    await this.db.delete(oauthRecords).where(and(eq(oauthRecords.kind, kind), eq(oauthRecords.idDigest, digestOf(id))));
  }

  /** The grant a record belongs to (null: none, or no such record). */
  async grantOf(kind: string, id: string): Promise<string | null> {
    const [row] = await this.db
      .select({ grantId: oauthRecords.grantId })
      .from(oauthRecords)
      .where(and(eq(oauthRecords.kind, kind), eq(oauthRecords.idDigest, digestOf(id))));
    return row?.grantId ?? null;
  }

  /** The same records inside a transaction (a revocation's unit of work). */
  within(tx: Db): OAuthRecordRepository {
    return new OAuthRecordRepository(tx);
  }

  /** Every code, token and the grant itself: what revoking a grant (or a replayed refresh token) ends. Resolves with how many went. */
  async destroyGrant(grantId: string): Promise<number> {
    const gone = await this.db
      .delete(oauthRecords)
      .where(eq(oauthRecords.grantId, grantId))
      .returning({ kind: oauthRecords.kind });
    return gone.length;
  }

  /**
   * A token was issued for the grant: it now lasts OAUTH_GRANT_DAYS from this use (the row's expiry
   * for the sweep and the adapter, the payload's `exp` for the provider's own check).
   */
  async touchGrant(grantId: string, now: Date, until: Date): Promise<void> {
    const exp = Math.floor(until.getTime() / 1000);
    await this.db
      .update(oauthRecords)
      .set({
        lastUsedAt: now,
        expiresAt: until,
        payload: sql`jsonb_set(${oauthRecords.payload}, '{exp}', ${exp}::text::jsonb)`,
      })
      .where(and(eq(oauthRecords.kind, 'Grant'), eq(oauthRecords.grantId, grantId)));
  }

  /**
   * Batched write-behind of grants' last use by their access tokens (GrantLastUse): never moves a
   * timestamp back, never touches the expiry. A grant revoked meanwhile has no row left to update.
   */
  async recordGrantUse(batch: ReadonlyMap<string, number>): Promise<void> {
    if (batch.size === 0) return;
    const ids = textArrayLiteral([...batch.keys()]);
    const instants = textArrayLiteral([...batch.values()].map((at) => new Date(at).toISOString()));
    await this.db.execute(sql`
      update oauth_records set last_used_at = used.at
      from unnest(${ids}::text[], ${instants}::timestamptz[]) as used(id, at)
      where oauth_records.kind = 'Grant' and oauth_records.grant_id = used.id
        and (oauth_records.last_used_at is null or oauth_records.last_used_at < used.at)`);
  }

  /** A registered client was used: it is removed only after CLIENT_UNUSED_DAYS more without use. */
  async touchClient(clientId: string, now: Date, until: Date): Promise<void> {
    await this.db
      .update(oauthRecords)
      .set({ lastUsedAt: now, expiresAt: until })
      .where(and(eq(oauthRecords.kind, 'Client'), eq(oauthRecords.idDigest, digestOf(clientId))));
  }

  /** The app's name as the consent page showed it, kept with the grant for Connected apps. */
  async nameGrant(grantId: string, appName: string): Promise<void> {
    await this.db
      .update(oauthRecords)
      .set({ appName })
      .where(and(eq(oauthRecords.kind, 'Grant'), eq(oauthRecords.grantId, grantId)));
  }

  /** The sweep: records past their expiry. Resolves with how many went. */
  async deleteExpired(now: Date): Promise<number> {
    const gone = await this.db
      .delete(oauthRecords)
      .where(and(isNotNull(oauthRecords.expiresAt), lte(oauthRecords.expiresAt, now)))
      .returning({ kind: oauthRecords.kind });
    return gone.length;
  }
}
