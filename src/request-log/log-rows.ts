import type { RequestLogEntry } from './request-log-schemas.ts';
import { credentialOf, methodOf, outcomeOfCode } from './stored-codes.ts';

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

/** The page's order: the instant, then the id (lowercase text sorts as PostgreSQL sorts uuids). */
export function newestFirst(a: Row, b: Row): number {
  const [atA, atB] = [Number(a.at_ms), Number(b.at_ms)];
  if (atA !== atB) return atB - atA;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function toEntry(row: Row): RequestLogEntry {
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
