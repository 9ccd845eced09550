ALTER TABLE "api_keys" ADD COLUMN "allowed_ips" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_refused_ip" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "key_usage" ADD COLUMN "ip_refused" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_usage" ADD COLUMN "ip_refused" bigint DEFAULT 0 NOT NULL;