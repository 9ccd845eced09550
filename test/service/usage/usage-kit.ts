import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { UserActor } from '../../../src/shared/actor.ts';
import type { UsageWindow } from '../../../src/usage/usage-schemas.ts';
import { rowsOf, type Harness } from '../../support/harness.ts';

/** A request through the key check, expecting its outcome. */
export async function check(h: Harness, secret: string, ok = true): Promise<void> {
  expect((await h.services.keys.check.check(secret, 'usage-test')).ok).toBe(ok);
}

/** The ok and rejected totals (rate_limited has tests of its own, in test/http/rate-limit-usage.test.ts). */
export async function keyTotal(h: Harness, actor: UserActor, keyId: string, window: UsageWindow = '24h') {
  const { ok, rejected } = (await h.services.usage.reports.forKey(actor, keyId, window)).total;
  return { ok, rejected };
}

export async function tenantTotal(h: Harness, actor: UserActor, window: UsageWindow = '24h') {
  const { ok, rejected } = (await h.services.usage.reports.forTenant(actor, window)).total;
  return { ok, rejected };
}

/** Rows of a usage table, straight from the database. */
export async function usageRows(
  h: Harness,
  table: 'key_usage' | 'tenant_usage',
  column: 'key_id' | 'tenant_id',
  id: string,
): Promise<number> {
  const result = await rowsOf<{ n: number }>(
    h,
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${id}`,
  );
  return Number(result.rows[0]!.n);
}
