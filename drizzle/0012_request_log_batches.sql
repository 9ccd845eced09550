CREATE TABLE "request_log_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "request_log_outcome_idx";--> statement-breakpoint
DROP INDEX "request_log_status_idx";--> statement-breakpoint
DROP INDEX "request_log_route_idx";--> statement-breakpoint
ALTER TABLE "request_log" DROP CONSTRAINT "request_log_id_at_pk";--> statement-breakpoint
CREATE INDEX "request_log_failure_idx" ON "request_log" USING btree ("tenant_id","outcome","at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "request_log"."outcome" <> 'ok';