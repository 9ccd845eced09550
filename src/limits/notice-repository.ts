import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { rateLimitWindows } from '../db/rate-limit-tables.ts';

/** The rate-limit notices' statements on `rate_limit_windows`. */

/** True for the one caller that marks the window's first refusal. */
export async function claimRateLimitNotice(tx: Db, keyId: string, windowStart: Date): Promise<boolean> {
  const marked = await tx
    .insert(rateLimitWindows)
    .values({ keyId, windowStart, used: 0, refusalNoticed: true })
    .onConflictDoUpdate({
      target: [rateLimitWindows.keyId, rateLimitWindows.windowStart],
      set: { refusalNoticed: true },
      where: eq(rateLimitWindows.refusalNoticed, false),
    })
    .returning({ keyId: rateLimitWindows.keyId });
  return marked.length > 0;
}

/** Forgets the windows that started before `before`: their refusals were announced long ago. */
export async function pruneRateLimitWindows(tx: Db, before: Date): Promise<void> {
  await tx.execute(sql`delete from rate_limit_windows where window_start < ${before.toISOString()}::timestamptz`);
}
