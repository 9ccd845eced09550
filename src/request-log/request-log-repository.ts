import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { blocksOf, type BlockParameters } from './block-columns.ts';
import { blocksPage, ENTRY, SELECTED } from './block-pages-repository.ts';
import { newestFirst, toEntry, type LogPosition, type Row } from './log-rows.ts';
import type { RequestLogEntry, RequestLogFilter } from './request-log-schemas.ts';
import type { RequestBatch, RequestLogStore } from './request-log-writer.ts';
import { outcomeCode } from './stored-codes.ts';

/** Where the request log is written and read (src/db/request-log-tables.ts); a page of blocks is read in block-pages-repository.ts. */
export class RequestLogRepository implements RequestLogStore {
  private readonly db: Db;
  /**
   * How the batch's columns travel: `binary` (PostgreSQL through `pg`, the writer thread) as binary
   * arrays, which the database copies instead of parsing; `text` (PGlite, whose driver sends its
   * parameters as text) as array literals.
   */
  private readonly wire: 'binary' | 'text';
  constructor(db: Db, wire: 'binary' | 'text' = 'text') {
    this.db = db;
    this.wire = wire;
  }

  /**
   * The whole batch in ONE statement, a block per tenant and minute, with the batch's marker: a
   * batch retried after its answer was lost finds its marker already there and writes no entry
   * twice. Each column of a block is one array parameter (src/request-log/block-columns.ts).
   */
  async insert(batch: RequestBatch): Promise<void> {
    if (batch.rows.end <= batch.rows.start) return;
    const values = blocksOf(batch.rows, this.wire).map((block) => this.valuesOf(block));
    await this.db.execute(sql`
      with marker as (
        insert into request_log_batches (id) values (${batch.id}::uuid) on conflict do nothing returning id)
      insert into request_log_blocks (block, tenant_id, first_at, last_at, entries, keys, statuses, outcomes,
        networks, ${sql.raw(ENTRY)})
      select v.* from (values ${sql.join(values, sql`, `)}) as v
      where exists (select 1 from marker)`);
  }

  private valuesOf(block: BlockParameters): SQL {
    const c = block.columns;
    // PGlite's instants go as epoch milliseconds, which the database turns into `timestamptz` exactly.
    const at =
      this.wire === 'binary'
        ? sql`${c.at}::timestamptz[]`
        : sql`array(select timestamptz 'epoch' + ms * interval '1 millisecond'
            from unnest(${c.at}::float8[]) with ordinality as u(ms, n) order by n)`;
    return sql`(${block.block}::uuid, ${block.tenantId}::uuid, ${block.firstAt}::timestamptz,
      ${block.lastAt}::timestamptz, ${block.entries}::integer, ${block.keys}::uuid[], ${block.statuses}::smallint[],
      ${block.outcomes}::smallint[], ${block.networks}::bigint[], ${c.id}::uuid[], ${at}, ${c.credential}::smallint[],
      ${c.keyId}::uuid[], ${c.keyName}::text[], ${c.keyHint}::text[], ${c.method}::smallint[], ${c.path}::text[],
      ${c.route}::text[], ${c.status}::smallint[], ${c.outcome}::smallint[], ${c.address}::text[]::inet[],
      ${c.userAgent}::text[], ${c.durationMs}::real[], ${c.traceId}::text[], ${c.mcpMethod}::text[],
      ${c.mcpTool}::text[])`;
  }

  /**
   * Markers older than any retry: a batch is retried while its instance runs, for minutes, never a
   * day later. The database's clock on both sides, as it wrote them.
   */
  async forgetOldBatches(): Promise<void> {
    await this.db.execute(sql`delete from request_log_batches where written_at < now() - interval '1 day'`);
  }

  /**
   * Newest first, after `before` when given: the newest of the blocks and of the rows written
   * before them (docs/request-log.md (Reading)).
   */
  async page(
    tenantId: string,
    filter: RequestLogFilter,
    limit: number,
    before?: LogPosition,
  ): Promise<RequestLogEntry[]> {
    const entry = entryConditions(filter, before);
    const rows = await this.rowsPage(tenantId, entry, limit);
    const blocks = await blocksPage(this.db, tenantId, filter, before, entry, limit);
    return [...rows, ...blocks].sort(newestFirst).slice(0, limit).map(toEntry);
  }

  /**
   * The rows of `request_log`, written before the blocks: each filter has an index that starts
   * with the tenant and the filtered column and ends in this order, so a page is one index range.
   * The table's columns, not the output's `at` (a string), and the order as the indexes declare
   * it (desc nulls last): otherwise PostgreSQL sorts the whole range instead.
   */
  private async rowsPage(tenantId: string, entry: SQL[], limit: number): Promise<Row[]> {
    const result = await this.db.execute(sql`
      select ${SELECTED} from request_log
      where ${sql.join([sql`tenant_id = ${tenantId}::uuid`, ...entry], sql` and `)}
      order by request_log.at desc nulls last, request_log.id desc nulls last
      limit ${limit}`);
    return (result as { rows: Row[] }).rows;
  }
}

/** What an entry must be, in `request_log`'s column names (a block's entries are unnested under them). */
function entryConditions(filter: RequestLogFilter, before: LogPosition | undefined): SQL[] {
  const conditions: SQL[] = [];
  if (filter.key !== undefined) conditions.push(sql`key_id = ${filter.key}::uuid`);
  if (filter.outcome !== undefined) conditions.push(sql`outcome = ${outcomeCode(filter.outcome)}::smallint`);
  if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}::smallint`);
  // Said again so PostgreSQL may read the failures' index: a status of 400 or more is never `ok`.
  if (filter.status !== undefined && filter.status >= 400) conditions.push(sql`outcome <> 0`);
  if (filter.outcome !== undefined && filter.outcome !== 'ok') conditions.push(sql`outcome <> 0`);
  if (filter.route !== undefined) conditions.push(sql`route = ${filter.route}`);
  if (filter.address !== undefined) conditions.push(sql`address <<= ${filter.address}::inet`);
  if (filter.from !== undefined) conditions.push(sql`at >= ${filter.from}::timestamptz`);
  if (filter.to !== undefined) conditions.push(sql`at < ${filter.to}::timestamptz`);
  if (before !== undefined) conditions.push(sql`(at, id) < (${before.at}::timestamptz, ${before.id}::uuid)`);
  return conditions;
}
