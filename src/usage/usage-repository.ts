import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import { apiKeys, keyUsage, tenantUsage } from '../db/schema.ts';
import type { HourTally, UsageSink } from './usage-counter.ts';
import { byField, USAGE_OUTCOMES, type OutcomeCounts } from './usage-outcomes.ts';
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
   * The batch travels as array parameters, one per column, whatever its size.
   */
  async add(batch: readonly HourTally[]): Promise<void> {
    if (batch.length === 0) return;
    const counts = USAGE_OUTCOMES.map(({ field }) => sql`${arrayLiteral(batch.map((t) => t[field]))}::bigint[]`);
    await this.db.execute(sql`
      with batch as (
        select * from unnest(
          ${arrayLiteral(batch.map((t) => t.keyId))}::uuid[],
          ${arrayLiteral(batch.map((t) => t.tenantId))}::uuid[],
          ${arrayLiteral(batch.map((t) => new Date(t.hourMs).toISOString()))}::timestamptz[],
          ${sql.join(counts, sql`, `)}
        ) as b(key_id, tenant_id, hour, ${columns((c) => c)})
      ),
      per_key as (
        insert into key_usage (key_id, tenant_id, hour, ${columns((c) => c)})
        select b.key_id, b.tenant_id, b.hour, ${columns((c) => `b.${c}`)}
        from batch b join api_keys k on k.id = b.key_id
        order by b.key_id, b.hour
        on conflict (key_id, hour) do update
          set ${columns((c) => `${c} = key_usage.${c} + excluded.${c}`)}
      )
      insert into tenant_usage (tenant_id, hour, ${columns((c) => c)})
      select b.tenant_id, b.hour, ${columns((c) => `sum(b.${c})`)}
      from batch b join tenants t on t.id = b.tenant_id
      group by b.tenant_id, b.hour
      order by b.tenant_id, b.hour
      on conflict (tenant_id, hour) do update
        set ${columns((c) => `${c} = tenant_usage.${c} + excluded.${c}`)}`);
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
      .select({ hour: keyUsage.hour, ...byField(({ field }) => keyUsage[field]) })
      .from(keyUsage)
      .where(and(eq(keyUsage.keyId, keyId), gte(keyUsage.hour, from), lt(keyUsage.hour, to)));
    return rows.map(toHourCounts);
  }

  async tenantHours(tenantId: string, from: Date, to: Date): Promise<HourCounts[]> {
    const rows = await this.db
      .select({ hour: tenantUsage.hour, ...byField(({ field }) => tenantUsage[field]) })
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

function toHourCounts(row: { hour: Date } & OutcomeCounts): HourCounts {
  return { hourMs: row.hour.getTime(), ...byField(({ field }) => Number(row[field])) };
}

/** The count columns, each written by `each`, comma-separated: names from USAGE_OUTCOMES, never from input. */
function columns(each: (column: string) => string): SQL {
  return sql.raw(USAGE_OUTCOMES.map(({ column }) => each(column)).join(', '));
}
