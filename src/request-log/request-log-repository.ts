import { sql, type SQL } from 'drizzle-orm';
import { arrayLiteral, textArrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import { float4Array, instantArray, int2Array, textArray, uuidArray } from './binary-arrays.ts';
import type { RequestLogEntry, RequestLogFilter } from './request-log-schemas.ts';
import type { RequestBatch, RequestLogStore } from './request-log-writer.ts';
import type { RequestRecord } from './request-record.ts';
import { credentialCode, credentialOf, methodCode, methodOf, outcomeCode, outcomeOfCode } from './stored-codes.ts';

/** Where a page continues: the last entry's instant (ISO 8601, milliseconds, as written) and id. */
export type LogPosition = { at: string; id: string };

/** An entry as `page` selects it (its instant formatted, its address as text). */
export type Row = {
  id: string;
  at: string;
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
   * The whole batch in ONE statement, a column per array parameter, with the batch's marker: a
   * batch retried after its answer was lost finds its marker already there and writes no entry
   * twice. The arrays are unnested in the select list, element by element, where `from
   * unnest(…)` would first copy every column into a tuplestore (bench/RESULTS.md, 2026-11-29
   * afternoon). A text literal is built here in one pass (src/db/array-literal.ts), its instants
   * as epoch milliseconds, which the database turns into `timestamptz` exactly.
   */
  async insert(batch: RequestBatch): Promise<void> {
    const { records } = batch;
    if (records.length === 0) return;
    const c = batchColumns(records, this.wire);
    const at =
      this.wire === 'binary'
        ? sql`unnest(${c.at}::timestamptz[])`
        : sql`timestamptz 'epoch' + unnest(${c.at}::bigint[]) * interval '1 millisecond'`;
    await this.db.execute(sql`
      with marker as (
        insert into request_log_batches (id) values (${batch.id}::uuid) on conflict do nothing returning id)
      insert into request_log (id, at, tenant_id, credential, key_id, key_name, key_hint, method, path, route,
        status, outcome, address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool)
      select unnest(${c.id}::uuid[]), ${at}, unnest(${c.tenantId}::uuid[]), unnest(${c.credential}::smallint[]),
        unnest(${c.keyId}::uuid[]), unnest(${c.keyName}::text[]), unnest(${c.keyHint}::text[]),
        unnest(${c.method}::smallint[]), unnest(${c.path}::text[]), unnest(${c.route}::text[]),
        unnest(${c.status}::smallint[]), unnest(${c.outcome}::smallint[]), unnest(${c.address}::text[])::inet,
        unnest(${c.userAgent}::text[]), unnest(${c.durationMs}::real[]), unnest(${c.traceId}::text[]),
        unnest(${c.mcpMethod}::text[]), unnest(${c.mcpTool}::text[])
      where exists (select 1 from marker)`);
  }

  /**
   * Markers older than any retry: a batch is retried while its instance runs, for minutes, never a
   * day later. The database's clock on both sides, as it wrote them.
   */
  async forgetOldBatches(): Promise<void> {
    await this.db.execute(sql`delete from request_log_batches where written_at < now() - interval '1 day'`);
  }

  /**
   * Newest first, after `before` when given. Each filter has an index that starts with the tenant
   * and the filtered column and ends in this order, so a page is one index range however large
   * the log; the address range (`<<=`) is a range scan of its own index.
   */
  async page(
    tenantId: string,
    filter: RequestLogFilter,
    limit: number,
    before?: LogPosition,
  ): Promise<RequestLogEntry[]> {
    const conditions: SQL[] = [sql`tenant_id = ${tenantId}::uuid`];
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
    // The table's columns, not the output's `at` (a string), and the order as the indexes declare it
    // (desc nulls last): otherwise PostgreSQL cannot read a page off an index and sorts the whole
    // range instead, seconds at 10 million entries.
    const result = await this.db.execute(sql`
      select id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, credential, key_id, key_name, key_hint, method, path,
        route, status, outcome, host(address) as address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool
      from request_log
      where ${sql.join(conditions, sql` and `)}
      order by request_log.at desc nulls last, request_log.id desc nulls last
      limit ${limit}`);
    return (result as { rows: Row[] }).rows.map(toEntry);
  }
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

/** The batch as one parameter per column, in either wire form. */
export type Columns = Record<
  | 'id'
  | 'at'
  | 'tenantId'
  | 'credential'
  | 'keyId'
  | 'keyName'
  | 'keyHint'
  | 'method'
  | 'path'
  | 'route'
  | 'status'
  | 'outcome'
  | 'address'
  | 'userAgent'
  | 'durationMs'
  | 'traceId'
  | 'mcpMethod'
  | 'mcpTool',
  string | Buffer
>;

function columnsOf(
  records: readonly RequestRecord[],
  encode: {
    uuids: (values: string[]) => string | Buffer;
    instants: (values: number[]) => string | Buffer;
    int2s: (values: number[]) => string | Buffer;
    float4s: (values: number[]) => string | Buffer;
    texts: (values: (string | null)[]) => string | Buffer;
  },
): Columns {
  const { uuids, int2s, texts } = encode;
  const of = <T>(field: (record: RequestRecord) => T): T[] => records.map(field);
  return {
    id: uuids(of((r) => r.id)),
    at: encode.instants(of((r) => r.atMs)),
    tenantId: uuids(of((r) => r.tenantId)),
    credential: int2s(of((r) => credentialCode(r.credential))),
    keyId: uuids(of((r) => r.keyId)),
    keyName: texts(of((r) => r.keyName)),
    keyHint: texts(of((r) => r.keyHint)),
    method: int2s(of((r) => methodCode(r.method))),
    path: texts(of((r) => r.path)),
    route: texts(of((r) => r.route)),
    status: int2s(of((r) => r.status)),
    outcome: int2s(of((r) => outcomeCode(r.outcome))),
    address: texts(of((r) => r.address)),
    userAgent: texts(of((r) => r.userAgent)),
    durationMs: encode.float4s(of((r) => r.durationMs)),
    traceId: texts(of((r) => r.traceId)),
    mcpMethod: texts(of((r) => r.mcpMethod)),
    mcpTool: texts(of((r) => r.mcpTool)),
  };
}

const binaryColumns = (records: readonly RequestRecord[]) =>
  columnsOf(records, {
    uuids: uuidArray,
    instants: instantArray,
    int2s: int2Array,
    float4s: float4Array,
    texts: textArray,
  });

const textColumns = (records: readonly RequestRecord[]) =>
  columnsOf(records, {
    uuids: arrayLiteral,
    instants: arrayLiteral,
    int2s: arrayLiteral,
    float4s: arrayLiteral,
    texts: textArrayLiteral,
  });

/** A batch's columns as the writer sends them (bench/row-shapes.ts sends them in another shape). */
export const batchColumns = (records: readonly RequestRecord[], wire: 'binary' | 'text'): Columns =>
  wire === 'binary' ? binaryColumns(records) : textColumns(records);
