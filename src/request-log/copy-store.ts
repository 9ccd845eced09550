import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { RequestBatch, RequestLogStore } from './request-log-writer.ts';
import type { RequestRecord } from './request-record.ts';

const COPY = `copy request_log (id, at, tenant_id, key_id, key_name, key_hint, method, path, route, status,
  outcome, address, user_agent, duration_ms, trace_id, mcp_method, mcp_tool) from stdin`;

// COPY's text format: a backslash, a tab, a newline or a carriage return is escaped; \N is NULL.
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const field = (value: string | null): string =>
  value === null ? '\\N' : SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]!) : value;

function lineOf(r: RequestRecord): string {
  return `${r.id}\t${new Date(r.atMs).toISOString()}\t${r.tenantId}\t${r.keyId}\t${field(r.keyName)}\t${field(
    r.keyHint,
  )}\t${field(r.method)}\t${field(r.path)}\t${field(r.route)}\t${r.status}\t${r.outcome}\t${field(r.address)}\t${field(
    r.userAgent,
  )}\t${r.durationMs}\t${field(r.traceId)}\t${field(r.mcpMethod)}\t${field(r.mcpTool)}\n`;
}

/**
 * The writer thread's PostgreSQL store: a batch is `COPY … FROM STDIN` (text) in the transaction
 * that adds its marker, and nothing when the marker was already there (a retry of a batch whose
 * commit was not heard): exactly once, as the `unnest` statement does, with less for the server to
 * parse and plan per row.
 */
export class CopyStore implements RequestLogStore {
  private readonly pool: pg.Pool;
  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async insert(batch: RequestBatch): Promise<void> {
    if (batch.records.length === 0) return;
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      const marked = await client.query(
        'insert into request_log_batches (id) values ($1::uuid) on conflict do nothing',
        [batch.id],
      );
      if (marked.rowCount === 1) {
        let text = '';
        for (const record of batch.records) text += lineOf(record);
        await pipeline(Readable.from([text]), client.query(copyFrom(COPY)));
      }
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
