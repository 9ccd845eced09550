import { sql, type SQL } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import { BLOCK_SPAN_MS, blocksOf, type BlockParameters } from './block-columns.ts';
import { networksOf } from './networks.ts';
import type { RequestLogEntry, RequestLogFilter } from './request-log-schemas.ts';
import type { RequestBatch, RequestLogStore } from './request-log-writer.ts';
import { credentialOf, methodOf, outcomeCode, outcomeOfCode } from './stored-codes.ts';

/** Where a page continues: the last entry's instant (ISO 8601, milliseconds, as written) and id. */
export type LogPosition = { at: string; id: string };

/** An entry as `page` selects it (its instant formatted and in milliseconds, its address as text). */
export type Row = {
  id: string;
  at: string;
  at_ms: number;
  credential: number;
  key_id: string;
  key_name: string;
  key_hint: string | null;
  method: number;
  path: string;
  route: string;
  status: number;
  outcome: number;
  address: string | null;
  user_agent: string | null;
  duration_ms: number;
  trace_id: string | null;
  mcp_method: string | null;
  mcp_tool: string | null;
};

const ENTRY = `id, at, credential, key_id, key_name, key_hint, method, path, route, status, outcome, address,
  user_agent, duration_ms, trace_id, mcp_method, mcp_tool`;
/** A block's entries as rows, named as `request_log`'s columns. */
const UNNESTED = sql.raw(`unnest(${ENTRY.replace(/(\w+)/g, 'b.$1')}) as e(${ENTRY})`);
const SELECTED = sql.raw(`id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
  (extract(epoch from at) * 1000)::float8 as at_ms, credential, key_id, key_name, key_hint, method, path, route,
  status, outcome, host(address) as address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool`);
/** Blocks unnested per round of a page, at most: enough for a sparse filter, bounded for memory. */
const MOST_BLOCKS = 256;
const SPAN = sql.raw(`interval '${BLOCK_SPAN_MS} milliseconds'`);

/** The only place that knows how the request log is stored (src/db/request-log-tables.ts). */
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
    if (batch.records.length === 0) return;
    const values = blocksOf(batch.records, this.wire).map((block) => this.valuesOf(block));
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
    const blocks = await this.blocksPage(blockConditions(tenantId, filter, before), entry, limit);
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

  /**
   * The blocks newest first by `last_at`, a few at a time, each round twice as many. A block's
   * entries may be older than a later block's, so the page is exact only once its last entry is
   * newer than every block not read: the round looks at one block more than it reads.
   */
  private async blocksPage(where: SQL, entry: SQL[], limit: number): Promise<Row[]> {
    let found: Row[] = [];
    for (let offset = 0, take = 2; ; offset += take, take = Math.min(take * 2, MOST_BLOCKS)) {
      const result = await this.db.execute(sql`
        select block, to_char(last_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_at,
          (extract(epoch from last_at) * 1000)::float8 as last_ms
        from request_log_blocks where ${where}
        order by last_at desc nulls last, block desc limit ${take + 1} offset ${offset}`);
      const blocks = (result as { rows: Array<{ block: string; last_at: string; last_ms: number }> }).rows;
      const read = blocks.slice(0, take);
      if (read.length === 0) return found;
      const entries = await this.db.execute(sql`
        select ${SELECTED} from (
          select e.* from request_log_blocks b cross join lateral ${UNNESTED}
          where ${where} and b.last_at <= ${read[0]!.last_at}::timestamptz
            and b.last_at >= ${read.at(-1)!.last_at}::timestamptz
            and b.block = any(${arrayLiteral(read.map((block) => block.block))}::uuid[])) as r
        ${entry.length > 0 ? sql`where ${sql.join(entry, sql` and `)}` : sql``}
        order by r.at desc, r.id desc limit ${limit}`);
      found = [...found, ...(entries as { rows: Row[] }).rows].sort(newestFirst).slice(0, limit);
      const next = blocks[take];
      if (next === undefined || (found.length === limit && Number(found.at(-1)!.at_ms) > Number(next.last_ms)))
        return found;
    }
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

/**
 * Which blocks may hold such an entry: the summaries for the rare filters (their GIN indexes), and
 * the time bounds as ranges of `last_at`, which a block's span (a minute) makes exact.
 */
function blockConditions(tenantId: string, filter: RequestLogFilter, before: LogPosition | undefined): SQL {
  const conditions: SQL[] = [sql`tenant_id = ${tenantId}::uuid`];
  if (filter.key !== undefined) conditions.push(sql`keys @> array[${filter.key}::uuid]`);
  if (filter.outcome !== undefined) conditions.push(sql`outcomes @> array[${outcomeCode(filter.outcome)}::smallint]`);
  if (filter.status !== undefined) conditions.push(sql`statuses @> array[${filter.status}::smallint]`);
  const networks = filter.address === undefined ? undefined : networksOf(filter.address);
  if (networks !== undefined) conditions.push(sql`networks && ${arrayLiteral(networks)}::bigint[]`);
  if (filter.from !== undefined) conditions.push(sql`last_at >= ${filter.from}::timestamptz`);
  for (const bound of [filter.to, before?.at]) {
    if (bound === undefined) continue;
    conditions.push(sql`first_at <= ${bound}::timestamptz`, sql`last_at <= ${bound}::timestamptz + ${SPAN}`);
  }
  return sql.join(conditions, sql` and `);
}

/** The page's order: the instant, then the id (lowercase text sorts as PostgreSQL sorts uuids). */
function newestFirst(a: Row, b: Row): number {
  const [atA, atB] = [Number(a.at_ms), Number(b.at_ms)];
  if (atA !== atB) return atB - atA;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function toEntry(row: Row): RequestLogEntry {
  return {
    id: row.id,
    at: row.at,
    credential: credentialOf(Number(row.credential)),
    key: { id: row.key_id, name: row.key_name, hint: row.key_hint },
    method: methodOf(Number(row.method)),
    path: row.path,
    route: row.route,
    status: Number(row.status),
    outcome: outcomeOfCode(Number(row.outcome)),
    address: row.address,
    user_agent: row.user_agent,
    duration_ms: Number(row.duration_ms),
    trace_id: row.trace_id,
    mcp: row.mcp_method === null ? null : { method: row.mcp_method, tool: row.mcp_tool },
  };
}
