CREATE TABLE "sso_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_tenant_id_sso_configurations_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."sso_configurations"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_domains_tenant_idx" ON "sso_domains" USING btree ("tenant_id");--> statement-breakpoint
-- Domains listed by two tenants before this rule: the provider saved first keeps it, the others lose it.
INSERT INTO "sso_domains" ("domain", "tenant_id")
SELECT DISTINCT ON (d."domain") d."domain", d."tenant_id"
FROM (
	SELECT unnest(c."allowed_domains") AS "domain", c."tenant_id", c."updated_at"
	FROM "sso_configurations" c
) d
ORDER BY d."domain", d."updated_at", d."tenant_id";--> statement-breakpoint
UPDATE "sso_configurations" c SET "allowed_domains" = ARRAY(
	SELECT s."domain" FROM "sso_domains" s WHERE s."tenant_id" = c."tenant_id" ORDER BY s."domain"
);
