import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { RateLimit } from '../shared/limit-terms.ts';
import type { Clock } from '../shared/clock.ts';
import { findKeyForEvent } from '../keys/events/key-event-repository.ts';
import { rateLimitedEvent } from '../keys/events/key-events.ts';
import { claimRateLimitNotice, pruneRateLimitWindows } from './notice-repository.ts';

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
      if (!(await claimRateLimitNotice(tx, keyId, windowStart))) return false;
      const key = await findKeyForEvent(tx, keyId);
      if (!key) return false;
      emit(
        rateLimitedEvent(key, nowMs, {
          ...limit,
          windowStart,
          windowEnd: new Date(windowStart.getTime() + windowMs),
        }),
      );
      return true;
    });
    if (nowMs - this.lastPruneMs > PRUNE_EVERY_MS) {
      this.lastPruneMs = nowMs;
      await this.uow.inTransaction((tx) => pruneRateLimitWindows(tx, new Date(nowMs - KEEP_MS)));
    }
    return announced;
  }
}
