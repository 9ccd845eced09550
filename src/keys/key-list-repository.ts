import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants } from '../db/schema.ts';

/**
 * A tenant's keys, newest first, with their creators' emails, and the tenant's key authority:
 * one round trip, the rows aggregated to one JSON text in SQL, because PGlite decodes a result
 * field by field in JavaScript and one value is far cheaper than 1,000 rows of 12 columns.
 * Instants leave SQL in UTC and become the API's strings without a Date in between. Prepared
 * once by KeyRepository, like the key check's lookup: every list would otherwise build it, and
 * PostgreSQL plan it.
 */
export function prepareKeysOfTenant(db: Db) {
  return db
    .select({
      authority: tenants.keyAuthority,
      keys: sql<string | null>`(
        select json_agg(json_build_array(
                 k.id, k.name, k.hint, k.created_at at time zone 'UTC', k.created_by, u.email, k.enabled,
                 k.disabled_reason, k.expires_at at time zone 'UTC', k.last_used_at at time zone 'UTC',
                 k.retires_at at time zone 'UTC', k.rate_limit_requests, k.rate_limit_window,
                 k.allowed_ips, k.last_refused_ip, k.last_refused_at at time zone 'UTC',
                 k.quota_requests, k.quota_period, coalesce(k.quota_counter, k.id))
               order by k.created_at desc, k.id desc)::text
          from api_keys k left join users u on u.id = k.created_by
         where k.tenant_id = tenants.id)`,
    })
    .from(tenants)
    .where(eq(tenants.id, sql.placeholder('tenantId')))
    .prepare('keys_of_tenant');
}
