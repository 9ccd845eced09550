import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/array-literal.ts';
import type { Db } from '../db/handle.ts';
import type { Row } from './request-log-repository.ts';
import type { RequestRecord } from './request-record.ts';
import { credentialOf, methodOf, outcomeOfCode } from './stored-codes.ts';

/** As `page` reads an entry, with what a record needs beside it: the tenant, the instant in milliseconds. */
type StoredRow = Omit<Row, 'at'> & { at_ms: number; tenant_id: string };

/**
 * The entries an earlier version wrote to the embedded engine's main database, before the log had
 * a store of its own (move-entries.ts takes them there): read in the order of their ids, the
 * primary key's index, and deleted once the store has them.
 */
export class EarlierEntriesRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async first(limit: number): Promise<RequestRecord[]> {
    const result = await this.db.execute(sql`
      select id, extract(epoch from at)::float8 * 1000 as at_ms, tenant_id, credential, key_id, key_name, key_hint,
        method, path, route, status, outcome, host(address) as address, user_agent, duration_ms, trace_id,
        mcp_method, mcp_tool
      from request_log order by id limit ${limit}`);
    return (result as { rows: StoredRow[] }).rows.map(recordOf);
  }

  async delete(ids: readonly string[]): Promise<void> {
    await this.db.execute(sql`delete from request_log where id = any(${arrayLiteral(ids)}::uuid[])`);
  }
}

function recordOf(row: StoredRow): RequestRecord {
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
