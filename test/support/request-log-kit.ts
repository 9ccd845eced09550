import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { SQL } from 'drizzle-orm';
import { openDatabase } from '../../src/db/database.ts';
import type { NamedRecord } from '../../src/request-log/request-record.ts';
import { rowsOf, type Harness, type Session } from './harness.ts';
import type { RequestLogEntry, RequestLogPage } from '../../src/request-log/request-log-schemas.ts';

/** Writes what the instance holds, then reads a key's entries through the back office, newest first. */
export async function entriesOf(h: Harness, session: Session, keyId: string): Promise<RequestLogEntry[]> {
  await h.services.requestLog.writer!.flush();
  const response = await session.request('GET', `/backoffice/api/request-log?key=${keyId}&limit=200`);
  if (response.statusCode !== 200) throw new Error(`request log: ${response.statusCode} ${response.body}`);
  return response.json<RequestLogPage>().data;
}

/** The app listening on a free port of 127.0.0.1: requests over real HTTP, as a client sends them. */
export async function listening(h: Harness): Promise<string> {
  if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

/** A JSON-RPC call to /mcp over HTTP with `key`. */
export function mcpOver(base: string, key: string, method: string, params: Record<string, unknown> = {}) {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

/** A record as the hook makes it for a whoami, at `atMs`, of `keyId` in `tenantId`. */
export function recordFor(tenantId: string, atMs: number, keyId: string = randomUUID()): NamedRecord {
  return {
    id: randomUUID(),
    atMs,
    tenantId,
    credential: 'key',
    keyId,
    keyName: 'k',
    keyHint: 'ask_…0000',
    method: 'GET',
    path: '/api/v1/whoami',
    route: '/api/v1/whoami',
    status: 200,
    outcome: 'ok',
    address: '192.0.2.1',
    userAgent: null,
    durationMs: 0.5,
    traceId: null,
    mcpMethod: null,
    mcpTool: null,
  };
}

/**
 * The request log's rows once the services have stopped: on PGlite its store's thread is gone, so
 * the store is opened again from its directory, as the next start would find it.
 */
export async function logRowsAfterStop<Row>(h: Harness, query: SQL): Promise<Row[]> {
  if (h.config.databaseUrl) return (await rowsOf<Row>(h, query)).rows;
  const store = await openDatabase({ dataDir: join(h.config.dataDir, 'request-log'), lockDataDir: false });
  try {
    const result: unknown = await store.db.execute(query);
    return (result as { rows: Row[] }).rows;
  } finally {
    await store.close();
  }
}
