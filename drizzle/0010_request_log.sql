CREATE TABLE "request_log" (
	"id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"tenant_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"key_name" text NOT NULL,
	"key_hint" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"route" text NOT NULL,
	"status" smallint NOT NULL,
	"outcome" text NOT NULL,
	"address" "inet",
	"user_agent" text,
	"duration_ms" real NOT NULL,
	"trace_id" text,
	"mcp_method" text,
	"mcp_tool" text,
	CONSTRAINT "request_log_id_at_pk" PRIMARY KEY("id","at")
) PARTITION BY RANGE ("at");
--> statement-breakpoint
-- Daily partitions are created ahead and dropped after REQUEST_LOG_DAYS by the housekeeping
-- (src/request-log/request-log-partitions.ts); a row no daily partition covers lands here.
CREATE TABLE "request_log_default" PARTITION OF "request_log" DEFAULT;
--> statement-breakpoint
CREATE INDEX "request_log_tenant_idx" ON "request_log" USING btree ("tenant_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_key_idx" ON "request_log" USING btree ("tenant_id","key_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_outcome_idx" ON "request_log" USING btree ("tenant_id","outcome","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_status_idx" ON "request_log" USING btree ("tenant_id","status","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_route_idx" ON "request_log" USING btree ("tenant_id","route","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_address_idx" ON "request_log" USING btree ("tenant_id","address","at" DESC NULLS LAST);