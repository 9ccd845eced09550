import { sql, type SQL } from 'drizzle-orm';
import { arrayLiteral, textArrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import type { RequestLogEntry, RequestLogFilter, RequestOutcome } from './request-log-schemas.ts';
import type { RequestBatch, RequestLogStore } from './request-log-writer.ts';
import type { RequestRecord } from './request-record.ts';

/** Where a page continues: the last entry's instant (ISO 8601, milliseconds, as written) and id. */
export type LogPosition = { at: string; id: string };

type Row = {
  id: string;
  at: string;
  key_id: string;
  key_name: string;
  key_hint: string;
  method: string;
  path: string;
  route: string;
  status: number;
  outcome: RequestOutcome;
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
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * The whole batch in ONE statement, a column per array parameter (cheaper to send and to read
   * than a row per JSON object), with the batch's marker: a batch retried after its answer was
   * lost finds its marker already there and writes no entry twice. Each column goes as an array
   * literal built here (a string parameter): the drivers' array encoding escaped every element of
   * every column, a visible share of what an entry cost the serving process. Instants go as
   * epoch milliseconds, which the database turns into `timestamptz` exactly.
   */
  async insert(batch: RequestBatch): Promise<void> {
    const { records } = batch;
    if (records.length === 0) return;
    const plain = (of: (record: RequestRecord) => string | number) => arrayLiteral(records.map(of));
    const text = (of: (record: RequestRecord) => string | null) => textArrayLiteral(records.map(of));
    await this.db.execute(sql`
      with marker as (
        insert into request_log_batches (id) values (${batch.id}::uuid) on conflict do nothing returning id)
      insert into request_log (id, at, tenant_id, key_id, key_name, key_hint, method, path, route, status,
        outcome, address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool)
      select r.id, timestamptz 'epoch' + r.at_ms * interval '1 millisecond', r.tenant_id, r.key_id, r.key_name,
        r.key_hint, r.method, r.path, r.route, r.status, r.outcome, r.address, r.user_agent, r.duration_ms,
        r.trace_id, r.mcp_method, r.mcp_tool
      from unnest(
        ${plain((r) => r.id)}::uuid[], ${plain((r) => r.atMs)}::bigint[],
        ${plain((r) => r.tenantId)}::uuid[], ${plain((r) => r.keyId)}::uuid[], ${text((r) => r.keyName)}::text[],
        ${text((r) => r.keyHint)}::text[], ${text((r) => r.method)}::text[], ${text((r) => r.path)}::text[],
        ${text((r) => r.route)}::text[], ${plain((r) => r.status)}::smallint[], ${plain((r) => r.outcome)}::text[],
        ${text((r) => r.address)}::inet[], ${text((r) => r.userAgent)}::text[], ${plain((r) => r.durationMs)}::real[],
        ${text((r) => r.traceId)}::text[], ${text((r) => r.mcpMethod)}::text[], ${text((r) => r.mcpTool)}::text[]
      ) as r (id, at_ms, tenant_id, key_id, key_name, key_hint, method, path, route, status, outcome, address,
        user_agent, duration_ms, trace_id, mcp_method, mcp_tool)
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
    if (filter.outcome !== undefined) conditions.push(sql`outcome = ${filter.outcome}`);
    if (filter.status !== undefined) conditions.push(sql`status = ${filter.status}::smallint`);
    // Said again so PostgreSQL may read the failures' index: a status of 400 or more is never `ok`.
    if (filter.status !== undefined && filter.status >= 400) conditions.push(sql`outcome <> 'ok'`);
    if (filter.outcome !== undefined && filter.outcome !== 'ok') conditions.push(sql`outcome <> 'ok'`);
    if (filter.route !== undefined) conditions.push(sql`route = ${filter.route}`);
    if (filter.address !== undefined) conditions.push(sql`address <<= ${filter.address}::inet`);
    if (filter.from !== undefined) conditions.push(sql`at >= ${filter.from}::timestamptz`);
    if (filter.to !== undefined) conditions.push(sql`at < ${filter.to}::timestamptz`);
    if (before !== undefined) conditions.push(sql`(at, id) < (${before.at}::timestamptz, ${before.id}::uuid)`);
    // The table's columns, not the output's `at` (a string), and the order as the indexes declare it
    // (desc nulls last): otherwise PostgreSQL cannot read a page off an index and sorts the whole
    // range instead, seconds at 10 million entries.
    const result = await this.db.execute(sql`
      select id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, key_id, key_name, key_hint, method, path,
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
    // An access token's entry is stored with an empty hint (no key has one): its grant, by app name.
    credential: row.key_hint === '' ? 'oauth' : 'key',
    key: { id: row.key_id, name: row.key_name, hint: row.key_hint === '' ? null : row.key_hint },
    method: row.method,
    path: row.path,
    route: row.route,
    status: Number(row.status),
    outcome: row.outcome,
    address: row.address,
    user_agent: row.user_agent,
    duration_ms: Number(row.duration_ms),
    trace_id: row.trace_id,
    mcp: row.mcp_method === null ? null : { method: row.mcp_method, tool: row.mcp_tool },
  };
}
