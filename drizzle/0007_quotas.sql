CREATE TABLE "quota_periods" (
	"key_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"spent" integer DEFAULT 0 NOT NULL,
	"low_noticed" boolean DEFAULT false NOT NULL,
	"exhausted_noticed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "quota_periods_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "quota_requests" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "quota_period" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "quota_counter" uuid;--> statement-breakpoint
ALTER TABLE "key_usage" ADD COLUMN "quota_exceeded" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_usage" ADD COLUMN "quota_exceeded" bigint DEFAULT 0 NOT NULL;