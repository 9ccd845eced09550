import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import type { Row } from './log-rows.ts';
import type { NamedRecord } from './request-record.ts';
import { credentialOf, methodOf, outcomeOfCode } from './stored-codes.ts';

/** As `page` reads an entry, with what a record needs beside it: the tenant, the instant in milliseconds. */
type StoredRow = Omit<Row, 'at'> & { tenant_id: string };

/** Where a tenant's move has come to: the last entry read, its instant exactly as stored. */
export type MovePosition = { at: string; id: string };

/**
 * The entries an earlier version wrote to the embedded engine's main database, before the log had
 * a store of its own (move-entries.ts takes them there): a tenant at a time, newest first, each
 * read and each delete one range of the tenant's index. The table has no index on the id alone: an
 * order by id sorted the whole table for every batch, 200 ms at 100,000 entries on the request
 * thread, and growing with the log.
 */
export class EarlierEntriesRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The first tenant with entries left, after `after` when given. */
  async nextTenant(after?: string): Promise<string | undefined> {
    const result = await this.db.execute(sql`
      select tenant_id from request_log
      ${after === undefined ? sql`` : sql`where tenant_id > ${after}::uuid`}
      order by tenant_id limit 1`);
    return (result as { rows: { tenant_id: string }[] }).rows[0]?.tenant_id;
  }

  /** A tenant's newest entries, older than `before` when given, and where the next read goes on; none left, undefined. */
  async newest(
    tenantId: string,
    limit: number,
    before?: MovePosition,
  ): Promise<{ records: NamedRecord[]; newestAt: string; last: MovePosition } | undefined> {
    const result = await this.db.execute(sql`
      select id, at::text as at_exact, extract(epoch from at)::float8 * 1000 as at_ms, tenant_id, credential, key_id,
        key_name, key_hint, method, path, route, status, outcome, host(address) as address, user_agent, duration_ms,
        trace_id, mcp_method, mcp_tool
      from request_log
      where tenant_id = ${tenantId}::uuid
        ${before === undefined ? sql`` : sql`and (at, id) < (${before.at}::timestamptz, ${before.id}::uuid)`}
      order by at desc nulls last, id desc nulls last
      limit ${limit}`);
    const rows = (result as { rows: (StoredRow & { at_exact: string })[] }).rows;
    const [first, last] = [rows[0], rows.at(-1)];
    if (!first || !last) return undefined;
    return { records: rows.map(recordOf), newestAt: first.at_exact, last: { at: last.at_exact, id: last.id } };
  }

  /** The entries `newest` read: the ids, within the instants it read them between. */
  async delete(tenantId: string, ids: readonly string[], newestAt: string, oldest: MovePosition): Promise<void> {
    await this.db.execute(sql`
      delete from request_log
      where tenant_id = ${tenantId}::uuid and at <= ${newestAt}::timestamptz and at >= ${oldest.at}::timestamptz
        and id = any(${arrayLiteral(ids)}::uuid[])`);
  }
}

function recordOf(row: StoredRow): NamedRecord {
  return {
    id: row.id,
    atMs: Math.round(Number(row.at_ms)),
    tenantId: row.tenant_id,
    credential: credentialOf(Number(row.credential)),
    keyId: row.key_id,
    keyName: row.key_name,
    keyHint: row.key_hint,
    method: methodOf(Number(row.method)),
    path: row.path,
    route: row.route,
    status: Number(row.status),
    outcome: outcomeOfCode(Number(row.outcome)),
    address: row.address,
    userAgent: row.user_agent,
    durationMs: Number(row.duration_ms),
    traceId: row.trace_id,
    mcpMethod: row.mcp_method,
    mcpTool: row.mcp_tool,
  };
}
