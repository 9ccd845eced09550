import { and, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { apiKeys, users } from '../../db/schema.ts';
import type { KeyRow, KeyRowWithCreator } from '../key-rows.ts';

/** The queries key events need beyond the key repository's own. */

/** The same rows with their creators' e-mails, as an event's ApiKey shows them. */
export async function withCreatorEmails<R extends KeyRow>(
  tx: Db,
  rows: readonly R[],
): Promise<Array<R & Pick<KeyRowWithCreator, 'creatorEmail'>>> {
  const creators = [...new Set(rows.flatMap((row) => (row.createdBy ? [row.createdBy] : [])))];
  const found =
    creators.length === 0
      ? []
      : await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, creators));
  const emails = new Map(found.map((user) => [user.id, user.email]));
  return rows.map((row) => ({ ...row, creatorEmail: row.createdBy ? (emails.get(row.createdBy) ?? null) : null }));
}

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
