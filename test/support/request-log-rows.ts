import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/handle.ts';
import { entryColumnsOf, uuidColumn } from '../../src/request-log/block-columns.ts';
import type { RequestRecord } from '../../src/request-log/request-record.ts';

/**
 * Entries as a row each in `request_log`, as versions before drizzle/0018 wrote them (their
 * statement, binary arrays to PostgreSQL, literals to PGlite): the rows a page still reads beside
 * the blocks, the embedded main database's earlier entries, and bench/row-shapes.ts's other shape.
 */
export async function insertRows(db: Db, records: readonly RequestRecord[], wire: 'binary' | 'text' = 'text') {
  const c = entryColumnsOf(records, wire);
  const tenants = uuidColumn(
    records.map((record) => record.tenantId),
    wire,
  );
  const at =
    wire === 'binary'
      ? sql`unnest(${c.at}::timestamptz[])`
      : sql`timestamptz 'epoch' + unnest(${c.at}::float8[]) * interval '1 millisecond'`;
  await db.execute(sql`
    insert into request_log (id, at, tenant_id, credential, key_id, key_name, key_hint, method, path, route,
      status, outcome, address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool)
    select unnest(${c.id}::uuid[]), ${at}, unnest(${tenants}::uuid[]), unnest(${c.credential}::smallint[]),
      unnest(${c.keyId}::uuid[]), unnest(${c.keyName}::text[]), unnest(${c.keyHint}::text[]),
      unnest(${c.method}::smallint[]), unnest(${c.path}::text[]), unnest(${c.route}::text[]),
      unnest(${c.status}::smallint[]), unnest(${c.outcome}::smallint[]), unnest(${c.address}::text[])::inet,
      unnest(${c.userAgent}::text[]), unnest(${c.durationMs}::real[]), unnest(${c.traceId}::text[]),
      unnest(${c.mcpMethod}::text[]), unnest(${c.mcpTool}::text[])`);
}
