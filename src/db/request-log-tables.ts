import { sql } from 'drizzle-orm';
import { index, inet, pgTable, real, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The request log (docs/request-log.md): one row per API or MCP request that presented a key of a
 * tenant. Partitioned by day on `at` (the migration declares it; Drizzle cannot), so retention
 * drops whole partitions. Every index is paid by every request, so there are four, not one per
 * filter, and no unique key per row: a batch's marker in `request_log_batches` makes a retried
 * batch write nothing. No foreign keys: a write here must never wait on a key or tenant row, and
 * a deleted key's requests stay readable, with the name and hint they were made with, until they
 * age out. The method, the outcome and the credential are small codes
 * (src/request-log/stored-codes.ts): a row is read far less often than it is written.
 */
export const requestLog = pgTable(
  'request_log',
  {
    id: uuid('id').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    tenantId: uuid('tenant_id').notNull(),
    /** 0 an API key, 1 an OAuth access token (whose `key_id` is its grant's, `key_name` its app's). */
    credential: smallint('credential').notNull(),
    keyId: uuid('key_id').notNull(),
    keyName: text('key_name').notNull(),
    /** Null for an access token. */
    keyHint: text('key_hint'),
    method: smallint('method').notNull(),
    path: text('path').notNull(),
    route: text('route').notNull(),
    status: smallint('status').notNull(),
    outcome: smallint('outcome').notNull(),
    address: inet('address'),
    userAgent: text('user_agent'),
    durationMs: real('duration_ms').notNull(),
    traceId: text('trace_id'),
    mcpMethod: text('mcp_method'),
    mcpTool: text('mcp_tool'),
  },
  (t) => [
    // Each ends in the page order (newest first), so a page is an index range. Dense filters (a
    // route, `ok`) read the tenant's range and skip; rare ones have an index of their own.
    index('request_log_tenant_idx').on(t.tenantId, t.at.desc(), t.id.desc()),
    index('request_log_key_idx').on(t.tenantId, t.keyId, t.at.desc(), t.id.desc()),
    // Only the failures, a few in a hundred: the outcome and status filters, at almost no cost to an `ok` row (code 0).
    index('request_log_failure_idx')
      .on(t.tenantId, t.outcome, t.at.desc(), t.id.desc())
      .where(sql`${t.outcome} <> 0`),
    // B-tree on inet: `address <<= range` becomes a range scan (PostgreSQL's network subset support).
    index('request_log_address_idx').on(t.tenantId, t.address, t.at.desc()),
  ],
);

/**
 * One row per batch the writer wrote, in the same statement as its entries: a batch retried after
 * its answer was lost finds its marker and writes nothing. Kept a day (the housekeeping).
 */
export const requestLogBatches = pgTable('request_log_batches', {
  id: uuid('id').primaryKey(),
  writtenAt: timestamp('written_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
