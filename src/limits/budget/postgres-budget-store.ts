import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { SLICE_DIVISOR, sliceOf, type BudgetStore, type Lease, type LeaseRequest } from './lease.ts';

const PRUNE_EVERY_MS = 60_000;
/** Rows of windows that ended over a day ago go; a `1d` window ends a day after its start. */
const KEEP_MS = 2 * 86_400_000;

/** Where the counts live, and which rows may go: rate-limit windows by default, quota periods too. */
export type BudgetTable = { name: 'rate_limit_windows' | 'quota_periods'; prune: (nowMs: number) => SQL };

const RATE_LIMIT_WINDOWS: BudgetTable = {
  name: 'rate_limit_windows',
  prune: (nowMs) =>
    sql`delete from rate_limit_windows where window_start < ${new Date(nowMs - KEEP_MS).toISOString()}::timestamptz`,
};
/** A row inserted by a concurrent first lease is invisible to this statement's snapshot: ask again. */
const ATTEMPTS = 3;

type Row = { before: number | string; after: number | string };

/**
 * PostgreSQL mode without Redis: `rate_limit_windows` holds what all instances have leased per key
 * and window. One statement leases: a first lease inserts the row with its slice; later ones lock
 * the row (`for update`, so `before` is the latest committed value, not the snapshot's) and add
 * the slice computed from it. `used` never passes the limit, so neither do the grants.
 *
 * The row is keyed by the window's start only: after a key's window length changes, both lengths
 * may share a row. That can only count requests twice (refuse early), never admit more.
 */
export class PostgresBudgetStore implements BudgetStore {
  private nextPrune = 0;

  private readonly db: Db;
  private readonly onError: (error: unknown) => void;
  private readonly table: BudgetTable;
  constructor(db: Db, onError: (error: unknown) => void = () => {}, table: BudgetTable = RATE_LIMIT_WINDOWS) {
    this.db = db;
    this.onError = onError;
    this.table = table;
  }

  async lease(request: LeaseRequest): Promise<Lease> {
    this.prune(request.now);
    for (let attempt = 1; ; attempt++) {
      const row = await this.leaseOnce(request);
      if (row) {
        const before = Number(row.before);
        const after = Number(row.after);
        return { granted: after - before, used: after };
      }
      if (attempt >= ATTEMPTS) throw new Error(`${this.table.name}: the window row stayed invisible`);
    }
  }

  private async leaseOnce({ keyId, windowStart, limit, maxSlice }: LeaseRequest): Promise<Row | undefined> {
    const start = new Date(windowStart).toISOString();
    const table = sql.identifier(this.table.name);
    // Postgres integers have no infinity: the limit is as large a cap as there can be.
    const largest = Math.min(maxSlice, limit);
    const result = await this.db.execute<Row>(sql`
      with inserted as (
        insert into ${table} (key_id, window_start, used)
        values (${keyId}::uuid, ${start}::timestamptz, ${sliceOf(limit, maxSlice)}::int)
        on conflict (key_id, window_start) do nothing
        returning used
      ), leased as (
        update ${table} w
        set used = w.used + least(${limit}::int - w.used, ${largest}::int, greatest(1, ceil((${limit}::int - w.used) / ${SLICE_DIVISOR}::numeric)::int))
        from (
          select used from ${table}
          where key_id = ${keyId}::uuid and window_start = ${start}::timestamptz
          for update
        ) locked
        where w.key_id = ${keyId}::uuid and w.window_start = ${start}::timestamptz
          and w.used < ${limit}::int and not exists (select 1 from inserted)
        returning locked.used as before, w.used as after
      )
      select 0 as before, used as after from inserted
      union all
      select before, after from leased
      union all
      select used as before, used as after from ${table}
      where key_id = ${keyId}::uuid and window_start = ${start}::timestamptz
        and not exists (select 1 from inserted) and not exists (select 1 from leased)`);
    return (result as { rows: Row[] }).rows[0];
  }

  /** Off the lease's path: a failed prune is tried again a minute later. */
  private prune(now: number): void {
    if (now < this.nextPrune) return;
    this.nextPrune = now + PRUNE_EVERY_MS;
    this.db.execute(this.table.prune(now)).then(
      () => {},
      (error: unknown) => this.onError(error),
    );
  }
}
