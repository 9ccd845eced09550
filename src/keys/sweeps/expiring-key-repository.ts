import { and, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { apiKeys } from '../../db/schema.ts';
import type { KeyRow } from '../key-rows.ts';

/**
 * Marks the keys that have come within 7 days or 1 day of their expiry since last asked, in all
 * tenants, with the smaller threshold they are within. One `update ... returning`: with several
 * instances sweeping at once, the second waits for the first's row locks, finds the notice
 * already marked, and returns nothing, so each notice is sent once.
 */
export async function claimExpiringNotices(tx: Db, now: Date): Promise<KeyRow[]> {
  const oneDay = new Date(now.getTime() + 86_400_000);
  const sevenDays = new Date(now.getTime() + 7 * 86_400_000);
  return tx
    .update(apiKeys)
    .set({
      expiringNoticeDays: sql`case when ${apiKeys.expiresAt} <= ${oneDay.toISOString()}::timestamptz then 1 else 7 end`,
    })
    .where(
      and(
        gt(apiKeys.expiresAt, now),
        lte(apiKeys.expiresAt, sevenDays),
        or(isNull(apiKeys.expiringNoticeDays), and(gt(apiKeys.expiringNoticeDays, 1), lte(apiKeys.expiresAt, oneDay))),
      ),
    )
    .returning();
}
