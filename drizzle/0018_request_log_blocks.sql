-- The request log as blocks (docs/request-log.md (The block)): a row per tenant, minute and batch,
-- the entries as arrays. Rows already in request_log stay and are read beside the blocks until they
-- age out. Partitioned by day on first_at; the housekeeping makes and drops the days, as for
-- request_log (src/request-log/request-log-partitions.ts).
CREATE TABLE "request_log_blocks" (
	"block" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"entries" integer NOT NULL,
	"keys" uuid[] NOT NULL,
	"statuses" smallint[] NOT NULL,
	"outcomes" smallint[] NOT NULL,
	"networks" bigint[] NOT NULL,
	"id" uuid[] NOT NULL,
	"at" timestamp with time zone[] NOT NULL,
	"credential" smallint[] NOT NULL,
	"key_id" uuid[] NOT NULL,
	"key_name" text[] NOT NULL,
	"key_hint" text[] NOT NULL,
	"method" smallint[] NOT NULL,
	"path" text[] NOT NULL,
	"route" text[] NOT NULL,
	"status" smallint[] NOT NULL,
	"outcome" smallint[] NOT NULL,
	"address" "inet"[] NOT NULL,
	"user_agent" text[] NOT NULL,
	"duration_ms" real[] NOT NULL,
	"trace_id" text[] NOT NULL,
	"mcp_method" text[] NOT NULL,
	"mcp_tool" text[] NOT NULL
) PARTITION BY RANGE ("first_at");
--> statement-breakpoint
CREATE TABLE "request_log_blocks_default" PARTITION OF "request_log_blocks" DEFAULT;
--> statement-breakpoint
-- lz4 where the server has it (PostgreSQL built with it; PGlite is not): it compresses the arrays
-- at about a third of pglz's CPU (bench/RESULTS.md, 2026-11-29 night).
DO $$
BEGIN
  IF 'lz4' = ANY ((SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression')::text[]) THEN
    EXECUTE (SELECT 'ALTER TABLE request_log_blocks ' || string_agg(format('ALTER COLUMN %I SET COMPRESSION lz4', attname), ', ')
      FROM pg_attribute WHERE attrelid = 'request_log_blocks'::regclass AND attnum > 0
        AND (SELECT typcategory FROM pg_type WHERE oid = atttypid) = 'A');
  END IF;
END $$;
--> statement-breakpoint
CREATE INDEX "request_log_blocks_tenant_idx" ON "request_log_blocks" USING btree ("tenant_id","last_at" DESC NULLS LAST,"first_at");--> statement-breakpoint
CREATE INDEX "request_log_blocks_keys_idx" ON "request_log_blocks" USING gin ("keys");--> statement-breakpoint
CREATE INDEX "request_log_blocks_statuses_idx" ON "request_log_blocks" USING gin ("statuses");--> statement-breakpoint
CREATE INDEX "request_log_blocks_outcomes_idx" ON "request_log_blocks" USING gin ("outcomes");--> statement-breakpoint
CREATE INDEX "request_log_blocks_networks_idx" ON "request_log_blocks" USING gin ("networks");--> statement-breakpoint
-- Every entry, whichever shape holds it, as a row: for an operator's SQL and the tests, not the
-- back office's pages (their reads are in src/request-log/request-log-repository.ts).
CREATE VIEW "request_log_entries" AS
  SELECT "id", "at", "tenant_id", "credential", "key_id", "key_name", "key_hint", "method", "path", "route",
    "status", "outcome", "address", "user_agent", "duration_ms", "trace_id", "mcp_method", "mcp_tool"
  FROM "request_log"
  UNION ALL
  SELECT e."id", e."at", b."tenant_id", e."credential", e."key_id", e."key_name", e."key_hint", e."method", e."path",
    e."route", e."status", e."outcome", e."address", e."user_agent", e."duration_ms", e."trace_id", e."mcp_method",
    e."mcp_tool"
  FROM "request_log_blocks" b CROSS JOIN LATERAL unnest(b."id", b."at", b."credential", b."key_id", b."key_name",
    b."key_hint", b."method", b."path", b."route", b."status", b."outcome", b."address", b."user_agent",
    b."duration_ms", b."trace_id", b."mcp_method", b."mcp_tool") AS e("id", "at", "credential", "key_id", "key_name",
    "key_hint", "method", "path", "route", "status", "outcome", "address", "user_agent", "duration_ms", "trace_id",
    "mcp_method", "mcp_tool");
--> statement-breakpoint
-- The blocks that may hold an entry a rare filter wants, by the summaries' GIN indexes. PostgreSQL
-- costs a seq scan of the blocks by their pages, not by the summaries it must decompress to test
-- them (300 ms for an address in 10 million entries, against 10 through the index): so here the
-- seq scan is off and the tenant is tested after, never through its B-tree. Only the filters
-- given are in the statement, so each call is planned for them.
CREATE FUNCTION "request_log_block_candidates"(tenant uuid, key uuid, outcome smallint, status smallint,
  networks bigint[]) RETURNS TABLE (block uuid, first_at timestamptz, last_at timestamptz)
LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $$
DECLARE
  statement text := 'select block, first_at, last_at from request_log_blocks where tenant_id::text = $1::text';
BEGIN
  IF key IS NOT NULL THEN statement := statement || ' and keys @> array[$2]'; END IF;
  IF outcome IS NOT NULL THEN statement := statement || ' and outcomes @> array[$3]'; END IF;
  IF status IS NOT NULL THEN statement := statement || ' and statuses @> array[$4]'; END IF;
  IF networks IS NOT NULL THEN statement := statement || ' and networks && $5'; END IF;
  RETURN QUERY EXECUTE statement USING tenant, key, outcome, status, networks;
END $$;
