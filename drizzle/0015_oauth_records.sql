CREATE TABLE "oauth_records" (
	"kind" text NOT NULL,
	"id_digest" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oauth_records_kind_id_digest_pk" PRIMARY KEY("kind","id_digest")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "oauth_apps" text DEFAULT 'key_managers' NOT NULL;--> statement-breakpoint
CREATE INDEX "oauth_records_grant_idx" ON "oauth_records" USING btree ("grant_id") WHERE grant_id is not null;--> statement-breakpoint
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records" USING btree ("kind","uid") WHERE uid is not null;--> statement-breakpoint
CREATE INDEX "oauth_records_expires_idx" ON "oauth_records" USING btree ("expires_at") WHERE expires_at is not null;