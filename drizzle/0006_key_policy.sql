CREATE TABLE "key_policies" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"max_lifetime_days" integer,
	"require_expiry" boolean DEFAULT false NOT NULL,
	"disable_unused_after_days" integer,
	"require_allowed_ips" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "active_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "unused_notice_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "unused_claim_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "unused_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "key_policies" ADD CONSTRAINT "key_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;