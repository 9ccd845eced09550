import { sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import type { Clock } from '../shared/clock.ts';

const DAY_MS = 86_400_000;
/** Days created ahead of today, so a write never waits for a partition and rarely lands in the default one. */
const DAYS_AHEAD = 3;
/** Rows removed from the default partition per statement: a short lock each, never one long one. */
const DELETE_BATCH = 5_000;
/** The log's partitioned tables (docs/request-log.md): the blocks, and the rows written before them. */
const TABLES = [
  { table: 'request_log_blocks', column: 'first_at' },
  { table: 'request_log', column: 'at' },
] as const;
type Table = (typeof TABLES)[number];

export type RequestLogPartitionsOptions = {
  db: Db;
  clock: Clock;
  days: number;
};

/**
 * Retention by whole days (docs/request-log.md (Retention)): one partition per UTC day, created
 * ahead and dropped once all of it is older than REQUEST_LOG_DAYS. Dropping a partition is a
 * catalog change, not a delete of millions of rows: its lock on the log lasts a moment, and
 * `lock_timeout` makes it give up rather than queue writers behind it. The same SQL runs on
 * PGlite, which is PostgreSQL too. Several instances may run it at once: an advisory lock makes
 * them take turns.
 */
export class RequestLogPartitions {
  private readonly options: RequestLogPartitionsOptions;
  constructor(options: RequestLogPartitionsOptions) {
    this.options = options;
  }

  /**
   * Creates the partitions of today and the next days, drops those past retention, for both tables
   * in one transaction (a read waits for both); returns what it dropped.
   */
  async maintain(): Promise<string[]> {
    const cutoffMs = this.options.clock.nowMs() - this.options.days * DAY_MS;
    const dropped: string[] = [];
    await this.options.db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '2s'`);
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('airkey.request_log_partitions'))`);
      for (const table of TABLES) dropped.push(...(await this.maintainTable(tx, table, cutoffMs)));
    });
    for (const table of TABLES) await this.pruneDefault(table, new Date(cutoffMs).toISOString());
    return dropped;
  }

  private async maintainTable(tx: Db, table: Table, cutoffMs: number): Promise<string[]> {
    const today = Math.floor(this.options.clock.nowMs() / DAY_MS) * DAY_MS;
    const dropped: string[] = [];
    const existing = new Set(await partitionsOf(tx, table.table));
    for (let day = today - DAY_MS; day <= today + DAYS_AHEAD * DAY_MS; day += DAY_MS) {
      const name = nameOf(table.table, day);
      if (existing.has(name) || day + DAY_MS <= cutoffMs) continue;
      const [from, to] = [new Date(day).toISOString(), new Date(day + DAY_MS).toISOString()];
      // Rows of that day already in the default partition would make the creation fail: they stay
      // there (still read, still pruned) and the day goes without a partition of its own.
      if (await defaultHolds(tx, table, from, to)) continue;
      await tx.execute(
        sql.raw(
          `create table if not exists ${name} partition of ${table.table} for values from ('${from}') to ('${to}')`,
        ),
      );
    }
    for (const name of existing) {
      const day = dayOf(table.table, name);
      if (day === undefined || day + DAY_MS > cutoffMs) continue;
      await tx.execute(sql.raw(`drop table if exists ${name}`));
      dropped.push(name);
    }
    return dropped;
  }

  /** Rows that no daily partition took, past retention: deleted a batch at a time. */
  private async pruneDefault({ table, column }: Table, cutoff: string): Promise<void> {
    for (;;) {
      const result = await this.options.db.execute(sql`
        delete from ${sql.raw(`${table}_default`)} where ctid in (
          select ctid from ${sql.raw(`${table}_default`)} where ${sql.raw(column)} < ${cutoff}::timestamptz
          limit ${DELETE_BATCH})`);
      if (
        ((result as { rowCount?: number | null; affectedRows?: number }).rowCount ??
          (result as { affectedRows?: number }).affectedRows ??
          0) < DELETE_BATCH
      )
        return;
    }
  }
}

async function defaultHolds(db: Db, { table, column }: Table, from: string, to: string): Promise<boolean> {
  const [partition, key] = [sql.raw(`${table}_default`), sql.raw(column)];
  const result = await db.execute(sql`
    select 1 from ${partition} where ${key} >= ${from}::timestamptz and ${key} < ${to}::timestamptz limit 1`);
  return (result as { rows: unknown[] }).rows.length > 0;
}

async function partitionsOf(db: Db, table: string): Promise<string[]> {
  const result = await db.execute(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname = ${table}`);
  return (result as { rows: Array<{ name: string }> }).rows
    .map((row) => row.name)
    .filter((name) => dayOf(table, name) !== undefined);
}

/** `request_log_p20261127`: the name says the day, so retention needs no catalog of bounds. */
function nameOf(table: string, dayMs: number): string {
  return `${table}_p${new Date(dayMs).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

function dayOf(table: string, name: string): number | undefined {
  if (!name.startsWith(`${table}_p`)) return undefined;
  const digits = name.slice(table.length + 2);
  if (!/^\d{8}$/.test(digits)) return undefined;
  return Date.UTC(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)) - 1, Number(digits.slice(6, 8)));
}

/**
 * The log's housekeeping on the store that holds it: the days (made ahead, dropped past
 * retention), then the batch markers older than any retry. Returns the days dropped.
 */
export async function keepLog(
  db: Db,
  clock: Clock,
  days: number,
  markers: { forgetOldBatches(): Promise<void> },
): Promise<string[]> {
  const dropped = await new RequestLogPartitions({ db, clock, days }).maintain();
  await markers.forgetOldBatches();
  return dropped;
}
