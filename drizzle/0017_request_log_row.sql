-- A narrower row (docs/request-log.md (The row)): the method and the outcome as small codes, the
-- credential in a column of its own (an access token's entry had an empty hint, now null). The
-- codes are those of src/request-log/stored-codes.ts; existing entries are converted in place
-- (one rewrite of each partition, at the upgrade). The failures' index names the outcome, so it
-- goes while the column changes type.
DROP INDEX "request_log_failure_idx";--> statement-breakpoint
ALTER TABLE "request_log" ADD COLUMN "credential" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "request_log" SET "credential" = 1 WHERE "key_hint" = '';--> statement-breakpoint
ALTER TABLE "request_log" ALTER COLUMN "credential" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "request_log" ALTER COLUMN "key_hint" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "request_log"
  ALTER COLUMN "key_hint" SET DATA TYPE text USING nullif("key_hint", ''),
  ALTER COLUMN "method" SET DATA TYPE smallint USING coalesce(array_position(ARRAY['GET', 'POST', 'PUT', 'PATCH',
    'DELETE', 'HEAD', 'OPTIONS', 'ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE',
    'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'PROPFIND', 'PROPPATCH', 'PURGE', 'QUERY', 'REBIND',
    'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE']::text[],
    "method") - 1, -1)::smallint,
  ALTER COLUMN "outcome" SET DATA TYPE smallint USING (array_position(ARRAY['ok', 'not_found', 'invalid_request',
    'permission_denied', 'rejected', 'ip_refused', 'rate_limited', 'quota_exceeded', 'error']::text[],
    "outcome") - 1)::smallint;--> statement-breakpoint
CREATE INDEX "request_log_failure_idx" ON "request_log" USING btree ("tenant_id","outcome","at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "request_log"."outcome" <> 0;
