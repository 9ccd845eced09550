import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../../db/array-literal.ts';
import type { Db } from '../../db/handle.ts';
import type { BudgetTable } from '../budget/postgres-budget-store.ts';
import type { Holding } from '../budget/allowance.ts';
import { quotaPeriodOf, type QuotaPeriod } from '../../shared/limit-terms.ts';

/** Periods that ended this long ago go; a month is at most 31 days. */
const KEEP_MS = 62 * 86_400_000;

/** The leases' table: a `total` count (at the epoch) stays while a key still spends it. */
export const QUOTA_TABLE: BudgetTable = {
  name: 'quota_periods',
  prune: (nowMs) => sql`
    delete from quota_periods q
    where (q.window_start > 'epoch'::timestamptz and q.window_start < ${new Date(nowMs - KEEP_MS).toISOString()}::timestamptz)
       or not exists (select 1 from api_keys k where coalesce(k.quota_counter, k.id) = q.key_id)`,
};

/** Accepted requests of one counter in one period, counted by this instance since its last flush. */
export type SpentTally = { counter: string; windowStart: number; spent: number };

/** The notices a period announces once across instances. */
export type QuotaNotice = 'low' | 'exhausted';

/** The only place that knows how quota counts are stored (`quota_periods`). */
export class QuotaRepository {
  private readonly db: Db;
  /** This instance (the change feed's id): its own holdings count as live in either mode. */
  private readonly instanceId: string;
  constructor(db: Db, instanceId: string) {
    this.db = db;
    this.instanceId = instanceId;
  }

  /**
   * Adds what instances accepted, never past what they leased (a reset meanwhile zeroed both).
   * One statement with array parameters, whatever the batch's size.
   */
  async addSpent(batch: readonly SpentTally[]): Promise<void> {
    if (batch.length === 0) return;
    await this.db.execute(sql`
      update quota_periods q set spent = least(q.used, q.spent + b.spent)
      from unnest(
        ${arrayLiteral(batch.map((t) => t.counter))}::uuid[],
        ${arrayLiteral(batch.map((t) => new Date(t.windowStart).toISOString()))}::timestamptz[],
        ${arrayLiteral(batch.map((t) => t.spent))}::int[]
      ) as b(key_id, window_start, spent)
      where q.key_id = b.key_id and q.window_start = b.window_start`);
  }

  /**
   * This instance's unspent leases replace the ones it wrote before, and rows of instances no
   * longer alive go (what they held is used now). One statement, whatever the number of keys.
   */
  async writeHoldings(instanceId: string, holdings: readonly Holding[]): Promise<void> {
    await this.db.execute(sql`
      with mine as (
        select * from unnest(
          ${arrayLiteral(holdings.map((h) => h.counter))}::uuid[],
          ${arrayLiteral(holdings.map((h) => new Date(h.windowStart).toISOString()))}::timestamptz[],
          ${arrayLiteral(holdings.map((h) => h.held))}::int[]
        ) as b(key_id, window_start, held)
      ), gone as (
        delete from quota_holdings h
        where (h.instance_id = ${instanceId}::uuid
               and not exists (select 1 from mine m where m.key_id = h.key_id and m.window_start = h.window_start))
           or (h.instance_id <> ${instanceId}::uuid and not ${aliveSql()})
      )
      insert into quota_holdings (instance_id, key_id, window_start, held)
      select ${instanceId}::uuid, key_id, window_start, held from mine
      on conflict (instance_id, key_id, window_start) do update set held = excluded.held`);
  }

  /**
   * What each counter used in its current period (0 where nothing was): what was leased, less what
   * live instances hold unspent as of their last flush. Never less than what the quota refuses
   * on, so a crashed instance's slice counts; never less than what was reported accepted either.
   */
  async usedNow(counters: readonly { counter: string; period: QuotaPeriod }[], nowMs: number, db: Db = this.db) {
    const used = new Map<string, number>();
    if (counters.length === 0) return used;
    const starts = counters.map((c) => new Date(quotaPeriodOf(c.period, nowMs).start).toISOString());
    const result = await db.execute<UsedRow>(sql`
      select q.key_id, (extract(epoch from q.window_start) * 1000)::bigint as start_ms,
        greatest(q.spent, q.used - coalesce((
          select sum(h.held) from quota_holdings h
          where h.key_id = q.key_id and h.window_start = q.window_start
            and (h.instance_id = ${this.instanceId}::uuid or ${aliveSql()})
        ), 0)) as used
      from unnest(${arrayLiteral(counters.map((c) => c.counter))}::uuid[], ${arrayLiteral(starts)}::timestamptz[])
        as b(key_id, window_start)
      join quota_periods q on q.key_id = b.key_id and q.window_start = b.window_start`);
    for (const row of (result as { rows: UsedRow[] }).rows)
      used.set(`${row.key_id}|${Number(row.start_ms)}`, Number(row.used));
    return used;
  }

  /** The current period starts over: nothing leased, spent, held or announced. */
  async reset(tx: Db, counter: string, windowStart: number): Promise<void> {
    await tx.execute(sql`
      delete from quota_holdings
      where key_id = ${counter}::uuid and window_start = ${new Date(windowStart).toISOString()}::timestamptz`);
    await tx.execute(sql`
      update quota_periods set used = 0, spent = 0, low_noticed = false, exhausted_noticed = false
      where key_id = ${counter}::uuid and window_start = ${new Date(windowStart).toISOString()}::timestamptz`);
  }

  /** True for the one caller, across instances, that marks the notice for this period. */
  async claim(tx: Db, counter: string, windowStart: number, notice: QuotaNotice): Promise<boolean> {
    const column = sql.identifier(notice === 'low' ? 'low_noticed' : 'exhausted_noticed');
    const result = await tx.execute(sql`
      update quota_periods set ${column} = true
      where key_id = ${counter}::uuid and window_start = ${new Date(windowStart).toISOString()}::timestamptz
        and not ${column}
      returning key_id`);
    return (result as { rows: unknown[] }).rows.length > 0;
  }
}

type UsedRow = { key_id: string; start_ms: string | number; used: string | number };

/** `h`'s instance still serves: its lease on a shared PostgreSQL holds (docs/keys.md (Revocation)). */
function aliveSql() {
  return sql`exists (select 1 from instances i where i.id = h.instance_id and i.lease_until > now())`;
}
