CREATE TABLE "key_usage" (
	"key_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"ok" bigint DEFAULT 0 NOT NULL,
	"rejected" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "key_usage_key_id_hour_pk" PRIMARY KEY("key_id","hour")
);
--> statement-breakpoint
CREATE TABLE "tenant_usage" (
	"tenant_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"ok" bigint DEFAULT 0 NOT NULL,
	"rejected" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tenant_usage_tenant_id_hour_pk" PRIMARY KEY("tenant_id","hour")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "retires_at" timestamp with time zone;--> statement-breakpoint
-- Keys that exist before this migration were minted without a checksum; keys made after it carry one.
ALTER TABLE "api_keys" ADD COLUMN "has_checksum" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "has_checksum" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "key_usage" ADD CONSTRAINT "key_usage_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_usage" ADD CONSTRAINT "tenant_usage_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_usage_tenant_hour_idx" ON "key_usage" USING btree ("tenant_id","hour");--> statement-breakpoint
CREATE INDEX "api_keys_retires_at_idx" ON "api_keys" USING btree ("retires_at") WHERE retires_at is not null;--> statement-breakpoint
CREATE INDEX "api_keys_legacy_idx" ON "api_keys" USING btree ("id") WHERE not has_checksum;