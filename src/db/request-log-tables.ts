import { sql } from 'drizzle-orm';
import { bigint, index, inet, integer, pgTable, real, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
 * The request log as the writer writes it since drizzle/0018 (docs/request-log.md (The block)): a
 * row per tenant, minute and batch, holding the entries as arrays, one per column of
 * `request_log` (whose rows, written before, stay readable until they age out). A row per entry cost
 * the database 8–10 µs of CPU an entry, four indexes kept per entry; a block costs about 2, its
 * indexes kept per block. The minute bounds a block's span, so a page's position and a time range
 * are still index ranges on `last_at`. The summaries (`keys`, `statuses`, `outcomes`, `networks`)
 * let a rare filter read only the blocks that hold a match. Partitioned by day on `first_at` (the
 * migration declares it), like `request_log`.
 */
export const requestLogBlocks = pgTable(
  'request_log_blocks',
  {
    block: uuid('block').notNull(),
    tenantId: uuid('tenant_id').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true, mode: 'date' }).notNull(),
    entries: integer('entries').notNull(),
    /** The block's distinct keys, statuses and outcome codes. */
    keys: uuid('keys').array().notNull(),
    statuses: smallint('statuses').array().notNull(),
    outcomes: smallint('outcomes').array().notNull(),
    /** The block's distinct networks: an IPv4 address's /24, an IPv6 address's /48 (src/request-log/networks.ts). */
    networks: bigint('networks', { mode: 'number' }).array().notNull(),
    id: uuid('id').array().notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).array().notNull(),
    credential: smallint('credential').array().notNull(),
    keyId: uuid('key_id').array().notNull(),
    keyName: text('key_name').array().notNull(),
    keyHint: text('key_hint').array().notNull(),
    method: smallint('method').array().notNull(),
    path: text('path').array().notNull(),
    route: text('route').array().notNull(),
    status: smallint('status').array().notNull(),
    outcome: smallint('outcome').array().notNull(),
    address: inet('address').array().notNull(),
    userAgent: text('user_agent').array().notNull(),
    durationMs: real('duration_ms').array().notNull(),
    traceId: text('trace_id').array().notNull(),
    mcpMethod: text('mcp_method').array().notNull(),
    mcpTool: text('mcp_tool').array().notNull(),
  },
  (t) => [
    // A page is a range of `last_at`; `first_at` in the key lets a position skip the newer blocks in the index.
    index('request_log_blocks_tenant_idx').on(t.tenantId, t.lastAt.desc(), t.firstAt),
    index('request_log_blocks_keys_idx').using('gin', t.keys),
    index('request_log_blocks_statuses_idx').using('gin', t.statuses),
    index('request_log_blocks_outcomes_idx').using('gin', t.outcomes),
    index('request_log_blocks_networks_idx').using('gin', t.networks),
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
