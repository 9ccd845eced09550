import { index, inet, pgTable, primaryKey, real, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The request log (docs/request-log.md): one row per API or MCP request that presented a key of a
 * tenant. Partitioned by day on `at` (the migration declares it; Drizzle cannot), so retention
 * drops whole partitions. The primary key holds `at` because a partitioned table's unique keys
 * must; `id` is made when the request is recorded, so a retried batch conflicts and writes nothing.
 * No foreign keys: a write here must never wait on a key or tenant row, and a deleted key's
 * requests stay readable until they age out.
 */
export const requestLog = pgTable(
  'request_log',
  {
    id: uuid('id').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    tenantId: uuid('tenant_id').notNull(),
    keyId: uuid('key_id').notNull(),
    keyName: text('key_name').notNull(),
    keyHint: text('key_hint').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    route: text('route').notNull(),
    status: smallint('status').notNull(),
    outcome: text('outcome').notNull(),
    address: inet('address'),
    userAgent: text('user_agent'),
    durationMs: real('duration_ms').notNull(),
    traceId: text('trace_id'),
    mcpMethod: text('mcp_method'),
    mcpTool: text('mcp_tool'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.at] }),
    // One per filter, each ending in the page order (newest first) so a page is an index range.
    index('request_log_tenant_idx').on(t.tenantId, t.at.desc(), t.id.desc()),
    index('request_log_key_idx').on(t.tenantId, t.keyId, t.at.desc(), t.id.desc()),
    index('request_log_outcome_idx').on(t.tenantId, t.outcome, t.at.desc(), t.id.desc()),
    index('request_log_status_idx').on(t.tenantId, t.status, t.at.desc(), t.id.desc()),
    index('request_log_route_idx').on(t.tenantId, t.route, t.at.desc(), t.id.desc()),
    // B-tree on inet: `address <<= range` becomes a range scan (PostgreSQL's network subset support).
    index('request_log_address_idx').on(t.tenantId, t.address, t.at.desc()),
  ],
);
