import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { rateLimitWindows } from '../db/rate-limit-tables.ts';
import { apiKeys } from '../db/schema.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { RateLimit } from '../ratelimit/rate-limit.ts';
import type { Clock } from '../shared/clock.ts';
import { withCreatorEmails } from '../keys/events/key-event-queries.ts';
import { rateLimitedEvent } from '../keys/events/key-events.ts';

const PRUNE_EVERY_MS = 60_000;
const KEEP_MS = 2 * 86_400_000;

/**
 * `api_key.rate_limited`: the first refusal of a key over its limit in a window, announced once
 * across instances. Each instance reports its own first refusal; the row of the window in
 * `rate_limit_windows` decides which one announces it (an upsert that flips `refusal_noticed` only
 * once). Runs off the request path: the refusal has already been answered.
 */
export class RateLimitNotices {
  private lastPruneMs = 0;

  private readonly uow: UnitOfWork;
  private readonly clock: Clock;
  constructor(uow: UnitOfWork, clock: Clock) {
    this.uow = uow;
    this.clock = clock;
  }

  async notice(keyId: string, limit: RateLimit, windowSeconds: number): Promise<boolean> {
    const nowMs = this.clock.nowMs();
    const windowMs = windowSeconds * 1000;
    const windowStart = new Date(Math.floor(nowMs / windowMs) * windowMs);
    const announced = await this.uow.inTransaction(async (tx, _changed, emit) => {
      if (!(await claim(tx, keyId, windowStart))) return false;
      const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, keyId));
      if (!row) return false;
      const [key] = await withCreatorEmails(tx, [row]);
      emit(
        rateLimitedEvent(key!, nowMs, {
          ...limit,
          windowStart,
          windowEnd: new Date(windowStart.getTime() + windowMs),
        }),
      );
      return true;
    });
    if (nowMs - this.lastPruneMs > PRUNE_EVERY_MS) {
      this.lastPruneMs = nowMs;
      await this.uow.inTransaction((tx) =>
        tx.execute(
          sql`delete from rate_limit_windows where window_start < ${new Date(nowMs - KEEP_MS).toISOString()}::timestamptz`,
        ),
      );
    }
    return announced;
  }
}

/** True for the one caller that marks the window's first refusal. */
async function claim(tx: Db, keyId: string, windowStart: Date): Promise<boolean> {
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
