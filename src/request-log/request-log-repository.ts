import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import type { RequestLogEntry, RequestLogFilter, RequestOutcome } from './request-log-schemas.ts';
import type { RequestLogStore } from './request-log-writer.ts';
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
   * The whole batch in ONE statement: it travels as one JSON parameter whatever its size, and a
   * row already written (a retry after a lost answer) is skipped by its primary key.
   */
  async insert(batch: readonly RequestRecord[]): Promise<void> {
    if (batch.length === 0) return;
    const rows = JSON.stringify(batch.map((r) => ({ ...r, at: new Date(r.atMs).toISOString() })));
    await this.db.execute(sql`
      insert into request_log (id, at, tenant_id, key_id, key_name, key_hint, method, path, route, status,
        outcome, address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool)
      select r."id", r."at", r."tenantId", r."keyId", r."keyName", r."keyHint", r."method", r."path", r."route",
        r."status", r."outcome", r."address"::inet, r."userAgent", r."durationMs", r."traceId", r."mcpMethod", r."mcpTool"
      from jsonb_to_recordset(${rows}::jsonb) as r("id" uuid, "at" timestamptz, "tenantId" uuid, "keyId" uuid,
        "keyName" text, "keyHint" text, "method" text, "path" text, "route" text, "status" smallint, "outcome" text,
        "address" text, "userAgent" text, "durationMs" real, "traceId" text, "mcpMethod" text, "mcpTool" text)
      on conflict do nothing`);
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
    if (filter.route !== undefined) conditions.push(sql`route = ${filter.route}`);
    if (filter.address !== undefined) conditions.push(sql`address <<= ${filter.address}::inet`);
    if (filter.from !== undefined) conditions.push(sql`at >= ${filter.from}::timestamptz`);
    if (filter.to !== undefined) conditions.push(sql`at < ${filter.to}::timestamptz`);
    if (before !== undefined) conditions.push(sql`(at, id) < (${before.at}::timestamptz, ${before.id}::uuid)`);
    const result = await this.db.execute(sql`
      select id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, key_id, key_name, key_hint, method, path,
        route, status, outcome, host(address) as address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool
      from request_log
      where ${sql.join(conditions, sql` and `)}
      order by at desc, id desc
      limit ${limit}`);
    return (result as { rows: Row[] }).rows.map(toEntry);
  }
}

function toEntry(row: Row): RequestLogEntry {
  return {
    id: row.id,
    at: row.at,
    key: { id: row.key_id, name: row.key_name, hint: row.key_hint },
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
