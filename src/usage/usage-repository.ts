import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import { apiKeys, keyUsage, tenantUsage } from '../db/schema.ts';
import type { HourTally, UsageSink } from './usage-counter.ts';
import type { HourCounts } from './usage-series.ts';
import type { TopKey } from './usage-schemas.ts';

/** The only place that knows how usage counts are stored: per key and hour, per tenant and hour. */
export class UsageRepository implements UsageSink {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Adds a batch to both tables in ONE statement, so a failure adds nothing and the batch can be
   * retried without counting twice. A key deleted since it was counted is left out of key_usage
   * (its rows went with it; inserting would break the foreign key on every retry) but still
   * counts for its tenant. Rows go in key order so concurrent flushes lock in the same order.
   * The batch travels as eight array parameters, whatever its size.
   */
  async add(batch: readonly HourTally[]): Promise<void> {
    if (batch.length === 0) return;
    await this.db.execute(sql`
      with batch as (
        select * from unnest(
          ${arrayLiteral(batch.map((t) => t.keyId))}::uuid[],
          ${arrayLiteral(batch.map((t) => t.tenantId))}::uuid[],
          ${arrayLiteral(batch.map((t) => new Date(t.hourMs).toISOString()))}::timestamptz[],
          ${arrayLiteral(batch.map((t) => t.ok))}::bigint[],
          ${arrayLiteral(batch.map((t) => t.rejected))}::bigint[],
          ${arrayLiteral(batch.map((t) => t.rateLimited))}::bigint[],
          ${arrayLiteral(batch.map((t) => t.ipRefused))}::bigint[],
          ${arrayLiteral(batch.map((t) => t.quotaExceeded))}::bigint[]
        ) as b(key_id, tenant_id, hour, ok, rejected, rate_limited, ip_refused, quota_exceeded)
      ),
      per_key as (
        insert into key_usage (key_id, tenant_id, hour, ok, rejected, rate_limited, ip_refused, quota_exceeded)
        select b.key_id, b.tenant_id, b.hour, b.ok, b.rejected, b.rate_limited, b.ip_refused, b.quota_exceeded
        from batch b join api_keys k on k.id = b.key_id
        order by b.key_id, b.hour
        on conflict (key_id, hour) do update
          set ok = key_usage.ok + excluded.ok, rejected = key_usage.rejected + excluded.rejected,
              rate_limited = key_usage.rate_limited + excluded.rate_limited,
              ip_refused = key_usage.ip_refused + excluded.ip_refused,
              quota_exceeded = key_usage.quota_exceeded + excluded.quota_exceeded
      )
      insert into tenant_usage (tenant_id, hour, ok, rejected, rate_limited, ip_refused, quota_exceeded)
      select b.tenant_id, b.hour, sum(b.ok), sum(b.rejected), sum(b.rate_limited), sum(b.ip_refused),
             sum(b.quota_exceeded)
      from batch b join tenants t on t.id = b.tenant_id
      group by b.tenant_id, b.hour
      order by b.tenant_id, b.hour
      on conflict (tenant_id, hour) do update
        set ok = tenant_usage.ok + excluded.ok, rejected = tenant_usage.rejected + excluded.rejected,
            rate_limited = tenant_usage.rate_limited + excluded.rate_limited,
            ip_refused = tenant_usage.ip_refused + excluded.ip_refused,
            quota_exceeded = tenant_usage.quota_exceeded + excluded.quota_exceeded`);
  }

  async keyExists(tenantId: string, keyId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId)))
      .limit(1);
    return row !== undefined;
  }

  async keyHours(keyId: string, from: Date, to: Date): Promise<HourCounts[]> {
    const rows = await this.db
      .select({
        hour: keyUsage.hour,
        ok: keyUsage.ok,
        rejected: keyUsage.rejected,
        rateLimited: keyUsage.rateLimited,
        ipRefused: keyUsage.ipRefused,
        quotaExceeded: keyUsage.quotaExceeded,
      })
      .from(keyUsage)
      .where(and(eq(keyUsage.keyId, keyId), gte(keyUsage.hour, from), lt(keyUsage.hour, to)));
    return rows.map(toHourCounts);
  }

  async tenantHours(tenantId: string, from: Date, to: Date): Promise<HourCounts[]> {
    const rows = await this.db
      .select({
        hour: tenantUsage.hour,
        ok: tenantUsage.ok,
        rejected: tenantUsage.rejected,
        rateLimited: tenantUsage.rateLimited,
        ipRefused: tenantUsage.ipRefused,
        quotaExceeded: tenantUsage.quotaExceeded,
      })
      .from(tenantUsage)
      .where(and(eq(tenantUsage.tenantId, tenantId), gte(tenantUsage.hour, from), lt(tenantUsage.hour, to)));
    return rows.map(toHourCounts);
  }

  /** The tenant's existing keys with the most accepted requests in [from, to). */
  async topKeys(tenantId: string, from: Date, to: Date, limit: number): Promise<TopKey[]> {
    const ok = sql<number>`sum(${keyUsage.ok})`.mapWith(Number);
    const rejected = sql<number>`sum(${keyUsage.rejected})`.mapWith(Number);
    return this.db
      .select({ id: apiKeys.id, name: apiKeys.name, hint: apiKeys.hint, ok, rejected })
      .from(keyUsage)
      .innerJoin(apiKeys, and(eq(apiKeys.id, keyUsage.keyId), eq(apiKeys.tenantId, tenantId)))
      .where(and(eq(keyUsage.tenantId, tenantId), gte(keyUsage.hour, from), lt(keyUsage.hour, to)))
      .groupBy(apiKeys.id)
      .orderBy(desc(ok), desc(rejected), asc(apiKeys.name), asc(apiKeys.id))
      .limit(limit);
  }

  /** Deletes every bucket that starts before `cutoff`, in both tables. */
  async pruneBefore(cutoff: Date): Promise<void> {
    await this.db.delete(keyUsage).where(lt(keyUsage.hour, cutoff));
    await this.db.delete(tenantUsage).where(lt(tenantUsage.hour, cutoff));
  }
}

function toHourCounts(row: {
  hour: Date;
  ok: number;
  rejected: number;
  rateLimited: number;
  ipRefused: number;
  quotaExceeded: number;
}): HourCounts {
  return {
    hourMs: row.hour.getTime(),
    ok: Number(row.ok),
    rejected: Number(row.rejected),
    rateLimited: Number(row.rateLimited),
    ipRefused: Number(row.ipRefused),
    quotaExceeded: Number(row.quotaExceeded),
  };
}
