import DataLoader from 'dataloader';
import { and, count, eq, getTableColumns, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import { apiKeys, tenants, users } from '../db/schema.ts';
import type { KeyAuthority } from '../shared/actor.ts';
import { keyFactsOf, type KeyFacts } from './key-facts.ts';
import { prepareKeysOfTenant } from './key-list-repository.ts';
import { listRowOf, type KeyListRow, type KeyRow, type KeyRowWithCreator, type ListedTuple } from './key-rows.ts';

/** The columns `setRules` may change. */
export type KeyRules = Partial<
  Pick<KeyRow, 'rateLimitRequests' | 'rateLimitWindow' | 'allowedIps' | 'quotaRequests' | 'quotaPeriod'>
>;

/** The only place that knows how keys are stored. */
export class KeyRepository {
  /**
   * The cold path's one query (every first request of a key on this instance), prepared once:
   * no query building per lookup, and on PostgreSQL no parse and plan either.
   */
  private readonly factsByDigests;
  /**
   * Lookups that arrive in the same turn of the event loop go as one query: under a burst of
   * never-seen keys that is one round trip for many, where writing the queries and the responses
   * to their sockets is most of the server's work. A lone lookup waits for nothing (setImmediate
   * runs right after the I/O that asked).
   */
  private readonly factsLoader: DataLoader<string, KeyFacts | null>;
  private readonly keysOfTenant: ReturnType<typeof prepareKeysOfTenant>;

  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
    this.factsByDigests = db
      .select({
        key: apiKeys,
        tenantSlug: tenants.slug,
        tenantName: tenants.name,
        authority: tenants.keyAuthority,
        creatorEmail: users.email,
        creatorRoles: users.roles,
      })
      .from(apiKeys)
      .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
      .leftJoin(users, eq(users.id, apiKeys.createdBy))
      .where(sql`${apiKeys.secretDigest} = any(${sql.placeholder('digests')}::text[])`)
      .prepare('key_facts_by_digests');
    this.factsLoader = new DataLoader((digests) => this.findFactsByDigests(digests), {
      cache: false,
      maxBatchSize: 100,
      batchScheduleFn: (send) => setImmediate(send),
    });
    this.keysOfTenant = prepareKeysOfTenant(db);
  }

  /** One indexed query, shared with the lookups of the same moment: the key, its tenant and its creator's current roles. */
  findFactsByDigest(digest: string): Promise<KeyFacts | null> {
    return this.factsLoader.load(digest);
  }

  private async findFactsByDigests(digests: readonly string[]): Promise<Array<KeyFacts | null>> {
    const rows = await this.factsByDigests.execute({ digests: [...digests] });
    const byDigest = new Map(rows.map((row) => [row.key.secretDigest, row]));
    return digests.map((digest) => {
      const row = byDigest.get(digest);
      if (!row) return null;
      return keyFactsOf({
        key: row.key,
        tenant: { slug: row.tenantSlug, name: row.tenantName, authority: row.authority },
        creator: row.creatorEmail === null ? null : { email: row.creatorEmail, roles: row.creatorRoles ?? [] },
      });
    });
  }

  /** Whether any key minted before checksums remains (a partial index keeps this cheap). */
  async anyLegacyKey(): Promise<boolean> {
    const [row] = await this.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.hasChecksum, false)).limit(1);
    return row !== undefined;
  }

  /**
   * Locks the key's tenant row for the rest of the transaction (serialises key creation, so the
   * per-tenant limit holds under races) and returns the tenant's key authority.
   */
  async lockTenant(tx: Db, tenantId: string): Promise<KeyAuthority> {
    const [row] = await tx
      .select({ authority: tenants.keyAuthority })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .for('update');
    return row?.authority ?? 'creator';
  }

  /** A tenant's keys, newest first, and its key authority (see keysOfTenant). */
  async listForTenant(tenantId: string): Promise<{ rows: KeyListRow[]; authority: KeyAuthority }> {
    const [row] = await this.keysOfTenant.execute({ tenantId });
    const listed = JSON.parse(row?.keys ?? '[]') as ListedTuple[];
    return { rows: listed.map(listRowOf), authority: row?.authority ?? 'creator' };
  }

  async findForTenant(tx: Db, tenantId: string, id: string): Promise<KeyRowWithCreator | undefined> {
    const [row] = await this.withCreator(tx)
      .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, id)))
      .for('update', { of: apiKeys });
    return row;
  }

  async countForTenant(tx: Db, tenantId: string): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.tenantId, tenantId));
    return row?.n ?? 0;
  }

  async insert(tx: Db, values: typeof apiKeys.$inferInsert): Promise<KeyRow> {
    const [row] = await tx.insert(apiKeys).values(values).returning();
    return row!;
  }

  /** `activeSince`: the key counts as idle from then on (an enable restarts the unused-key clock). */
  async setEnabled(
    tx: Db,
    id: string,
    enabled: boolean,
    disabledReason: string | null,
    activeSince?: Date,
  ): Promise<void> {
    await tx
      .update(apiKeys)
      .set({ enabled, disabledReason, ...(activeSince ? { activeSince } : {}) })
      .where(eq(apiKeys.id, id));
  }

  async delete(tx: Db, id: string): Promise<void> {
    await tx.delete(apiKeys).where(eq(apiKeys.id, id));
  }

  /**
   * The keys among these digests that still work or could work again, in any tenant, locked:
   * not expired, not retired, not already reported leaked.
   */
  async findLiveByDigests(tx: Db, digests: readonly string[], now: Date): Promise<KeyRow[]> {
    if (digests.length === 0) return [];
    return tx
      .select()
      .from(apiKeys)
      .where(
        and(
          inArray(apiKeys.secretDigest, [...digests]),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
          or(isNull(apiKeys.retiresAt), gt(apiKeys.retiresAt, now)),
          sql`${apiKeys.disabledReason} is distinct from 'leaked'`,
        ),
      )
      .for('update');
  }

  /** The rules a key is used under: its rate limit, allowlist and quota, any of them. */
  async setRules(tx: Db, id: string, rules: KeyRules): Promise<void> {
    await tx.update(apiKeys).set(rules).where(eq(apiKeys.id, id));
  }

  /** The keys that spend one quota count: a key, and its successor or predecessor while it retires. */
  async idsByQuotaCounter(tx: Db, counter: string): Promise<string[]> {
    const rows = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(sql`coalesce(${apiKeys.quotaCounter}, ${apiKeys.id}) = ${counter}::uuid`);
    return rows.map((row) => row.id);
  }

  async setRetiresAt(tx: Db, id: string, retiresAt: Date): Promise<void> {
    await tx.update(apiKeys).set({ retiresAt }).where(eq(apiKeys.id, id));
  }

  /** Deletes every rolled key whose retires_at has come, in all tenants. */
  async deleteRetired(tx: Db, now: Date): Promise<KeyRow[]> {
    return tx.delete(apiKeys).where(lte(apiKeys.retiresAt, now)).returning();
  }

  /** Disables every key a user created (their account is being deleted). */
  async disableByCreator(tx: Db, userId: string, reason: string): Promise<KeyRow[]> {
    return tx
      .update(apiKeys)
      .set({ enabled: false, disabledReason: reason })
      .where(eq(apiKeys.createdBy, userId))
      .returning();
  }

  /** Disables a tenant's keys whose creator no longer exists (authority switched to creator). */
  async disableOrphaned(tx: Db, tenantId: string, reason: string): Promise<KeyRow[]> {
    return tx
      .update(apiKeys)
      .set({ enabled: false, disabledReason: reason })
      .where(and(eq(apiKeys.tenantId, tenantId), isNull(apiKeys.createdBy), eq(apiKeys.enabled, true)))
      .returning();
  }

  /** Marks newly expired keys once, across all instances (for the api_key.expired audit event). */
  async claimNewlyExpired(tx: Db, now: Date): Promise<KeyRow[]> {
    return tx
      .update(apiKeys)
      .set({ expiryRecorded: true })
      .where(and(lte(apiKeys.expiresAt, now), eq(apiKeys.expiryRecorded, false)))
      .returning();
  }

  /**
   * Batched write-behind of last use; never moves a timestamp backwards. The batch travels as two
   * array parameters, whatever its size (a cold burst brings thousands of keys per flush).
   */
  async recordUsage(batch: ReadonlyMap<string, number>): Promise<void> {
    if (batch.size === 0) return;
    const ids = arrayLiteral(batch.keys());
    const instants = arrayLiteral([...batch.values()].map((at) => new Date(at).toISOString()));
    await this.db.execute(sql`
      update api_keys set last_used_at = used.at
      from unnest(${ids}::uuid[], ${instants}::timestamptz[]) as used(id, at)
      where api_keys.id = used.id and (api_keys.last_used_at is null or api_keys.last_used_at < used.at)`);
  }

  /** Batched write-behind of the last address a key was refused from; never moves back in time. */
  async recordRefusals(batch: ReadonlyMap<string, { address: string; atMs: number }>): Promise<void> {
    if (batch.size === 0) return;
    const ids = arrayLiteral(batch.keys());
    const addresses = arrayLiteral([...batch.values()].map((refusal) => refusal.address));
    const instants = arrayLiteral([...batch.values()].map((refusal) => new Date(refusal.atMs).toISOString()));
    await this.db.execute(sql`
      update api_keys set last_refused_ip = refused.address, last_refused_at = refused.at
      from unnest(${ids}::uuid[], ${addresses}::text[], ${instants}::timestamptz[]) as refused(id, address, at)
      where api_keys.id = refused.id and (api_keys.last_refused_at is null or api_keys.last_refused_at < refused.at)`);
  }

  private withCreator(db: Db) {
    return db
      .select({ ...getTableColumns(apiKeys), creatorEmail: users.email })
      .from(apiKeys)
      .leftJoin(users, eq(users.id, apiKeys.createdBy))
      .$dynamic();
  }
}
