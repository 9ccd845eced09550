import { sql, type SQL } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import { BLOCK_SPAN_MS } from './block-columns.ts';
import { networksOf } from './networks.ts';
import { newestFirst, type LogPosition, type Row } from './log-rows.ts';
import type { RequestLogFilter } from './request-log-schemas.ts';
import { outcomeCode } from './stored-codes.ts';

/** An entry's columns, in `request_log` and as a block's arrays, in the order the writer sends them. */
export const ENTRY = `id, at, credential, key_id, key_name, key_hint, method, path, route, status, outcome, address,
  user_agent, duration_ms, trace_id, mcp_method, mcp_tool`;
/**
 * A block's entries as rows, named as `request_log`'s columns: unnested in the select list, element
 * by element, where `from unnest(…)` first copies every column into a tuplestore.
 */
const UNNESTED = sql.raw(ENTRY.replace(/(\w+)/g, 'unnest(b.$1) as $1'));
/** Blocks unnested per round of a page, at most: enough for a sparse filter, bounded for memory. */
const MOST_BLOCKS = 256;
/** The tenant's newest blocks a rare filter tests by their summaries before it asks the GIN indexes. */
const PROBE = 64;
const SPAN = sql.raw(`interval '${BLOCK_SPAN_MS} milliseconds'`);
const BLOCK = sql.raw(`block, to_char(last_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_at,
  (extract(epoch from last_at) * 1000)::float8 as last_ms`);

/** An entry as a page reads it (log-rows.ts `Row`), from a row or an unnested block. */
export const SELECTED = sql.raw(`id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
  (extract(epoch from at) * 1000)::float8 as at_ms, credential, key_id, key_name, key_hint, method, path, route,
  status, outcome, host(address) as address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool`);

type Block = { block: string; last_at: string; last_ms: number };

/**
 * A page of the blocks (docs/request-log.md (Reading)): newest first by `last_at`, a few at a
 * time, each round twice as many. A block's entries may be older than a later block's, so the page
 * is exact only once its last entry is newer than every block not read: a round looks at one block
 * more than it reads.
 */
export async function blocksPage(
  db: Db,
  tenantId: string,
  filter: RequestLogFilter,
  before: LogPosition | undefined,
  entry: SQL[],
  limit: number,
): Promise<Row[]> {
  const candidates = new Candidates(db, tenantId, filter, before);
  let found: Row[] = [];
  for (let offset = 0, take = 2; ; offset += take, take = Math.min(take * 2, MOST_BLOCKS)) {
    const blocks = await candidates.slice(offset, take + 1);
    const read = blocks.slice(0, take);
    if (read.length === 0) return found;
    // Each block by its exact place in the tenant's index; the output's text for the page's entries only.
    const result = await db.execute(sql`
      select ${SELECTED} from (
        select * from (
          select ${UNNESTED} from unnest(${arrayLiteral(read.map((block) => block.last_at))}::timestamptz[],
              ${arrayLiteral(read.map((block) => block.block))}::uuid[]) as chosen(last_at, block)
            join request_log_blocks b on b.tenant_id = ${tenantId}::uuid and b.last_at = chosen.last_at
              and b.block = chosen.block) as unnested
        ${entry.length > 0 ? sql`where ${sql.join(entry, sql` and `)}` : sql``}
        order by at desc, id desc limit ${limit}) as r
      order by r.at desc, r.id desc`);
    found = [...found, ...(result as { rows: Row[] }).rows].sort(newestFirst).slice(0, limit);
    const next = blocks[take];
    if (next === undefined || (found.length === limit && Number(found.at(-1)!.at_ms) > Number(next.last_ms)))
      return found;
  }
}

/**
 * The blocks that may hold a match, newest first. Without a rare filter, a range of the tenant's
 * index. With one, the tenant's newest blocks are tested by their summaries first (a key in most
 * requests is in each of them); past those, every block that matches, named by the GIN indexes
 * through `request_log_block_candidates` (drizzle/0018: PostgreSQL would rather walk the blocks and
 * decompress each summary, 300 ms for an address in 10 million entries where the index takes 10).
 */
class Candidates {
  private readonly summaries: { key?: string; outcome?: number; status?: number; networks?: number[] };
  private readonly time: SQL;
  private readonly db: Db;
  private readonly tenantId: string;
  private known: Block[] = [];
  private complete = false;

  constructor(db: Db, tenantId: string, filter: RequestLogFilter, before: LogPosition | undefined) {
    [this.db, this.tenantId] = [db, tenantId];
    // `ok` and 200 are in nearly every block: their summary would narrow nothing.
    this.summaries = {
      key: filter.key,
      outcome: filter.outcome === undefined || filter.outcome === 'ok' ? undefined : outcomeCode(filter.outcome),
      status: filter.status === 200 ? undefined : filter.status,
      networks: filter.address === undefined ? undefined : networksOf(filter.address),
    };
    // A block spans at most a minute, so the time bounds are ranges of `last_at`.
    const time: SQL[] = [];
    if (filter.from !== undefined) time.push(sql`last_at >= ${filter.from}::timestamptz`);
    for (const bound of [filter.to, before?.at]) {
      if (bound === undefined) continue;
      time.push(sql`first_at <= ${bound}::timestamptz`, sql`last_at <= ${bound}::timestamptz + ${SPAN}`);
    }
    this.time = time.length > 0 ? sql.join(time, sql` and `) : sql`true`;
  }

  async slice(offset: number, count: number): Promise<Block[]> {
    const { key, outcome, status, networks } = this.summaries;
    if (key === undefined && outcome === undefined && status === undefined && networks === undefined) {
      const result = await this.db.execute(sql`
        select ${BLOCK} from request_log_blocks where tenant_id = ${this.tenantId}::uuid and ${this.time}
        order by last_at desc nulls last, block desc limit ${count} offset ${offset}`);
      return (result as { rows: Block[] }).rows;
    }
    if (offset === 0 && !this.complete) await this.probe();
    if (!this.complete && offset + count > this.known.length) {
      const result = await this.db.execute(sql`
        select ${BLOCK} from request_log_block_candidates(${this.tenantId}::uuid, ${key ?? null}::uuid,
          ${outcome ?? null}::smallint, ${status ?? null}::smallint,
          ${networks === undefined ? null : arrayLiteral(networks)}::bigint[])
        where ${this.time} order by last_at desc nulls last, block desc`);
      [this.known, this.complete] = [(result as { rows: Block[] }).rows, true];
    }
    return this.known.slice(offset, offset + count);
  }

  private async probe(): Promise<void> {
    const { key, outcome, status, networks } = this.summaries;
    const summaries: SQL[] = [];
    if (key !== undefined) summaries.push(sql`keys @> array[${key}::uuid]`);
    if (outcome !== undefined) summaries.push(sql`outcomes @> array[${outcome}::smallint]`);
    if (status !== undefined) summaries.push(sql`statuses @> array[${status}::smallint]`);
    if (networks !== undefined) summaries.push(sql`networks && ${arrayLiteral(networks)}::bigint[]`);
    const result = await this.db.execute(sql`
      with newest as (
        select * from request_log_blocks where tenant_id = ${this.tenantId}::uuid and ${this.time}
        order by last_at desc nulls last, block desc limit ${PROBE})
      select ${BLOCK}, (select count(*) from newest)::int as scanned from newest
      where ${sql.join(summaries, sql` and `)} order by last_at desc nulls last, block desc`);
    const rows = (result as { rows: Array<Block & { scanned: number }> }).rows;
    this.known = rows;
    // Fewer than the probe's blocks in the tenant's range: it saw every block.
    this.complete = rows.length > 0 ? Number(rows[0]!.scanned) < PROBE : await this.fewerThanProbe();
  }

  private async fewerThanProbe(): Promise<boolean> {
    const result = await this.db.execute(sql`
      select count(*)::int as n from (select 1 from request_log_blocks
        where tenant_id = ${this.tenantId}::uuid and ${this.time} limit ${PROBE}) as newest`);
    return Number((result as { rows: Array<{ n: number }> }).rows[0]!.n) < PROBE;
  }
}
