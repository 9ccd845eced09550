import type { Redis } from 'ioredis';
import type { ChangeFeed } from '../revocation/change-feed.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { KeyLimits } from './limit-steps.ts';
import { QuotaNotices } from './quota-notices.ts';
import { RateLimitNotices } from './rate-limit-notices.ts';
import { QuotaMeter } from './quota/quota-meter.ts';
import { QuotaRepository } from './quota/quota-repository.ts';
import { createRateLimiter } from './budget/create-limiter.ts';
import type { Clock } from '../shared/clock.ts';
import type { FailureStreak } from '../shared/failure-streak.ts';
import type { UsageCounter } from '../usage/usage-counter.ts';

export type KeyLimitsDeps = {
  kind: 'pglite' | 'postgres';
  db: Db;
  redis: Redis | undefined;
  uow: UnitOfWork;
  changes: ChangeFeed;
  clock: Clock;
  usageFlushMs: number;
  usageCounter: UsageCounter;
  streakOf: (task: string) => FailureStreak;
  backgroundError: (error: unknown) => void;
};

/**
 * Rate limits and quotas, wired: the meters, the notices they announce, and the change feed that
 * makes a lowered limit, a lowered quota or a reset hold on every instance from its response.
 */
export function createKeyLimits(deps: KeyLimitsDeps) {
  const { clock, usageCounter, backgroundError } = deps;
  const now = () => clock.nowMs();
  const rateLimitStore = deps.streakOf('rate_limit_store');
  // Per-key rate limits: budget leased from Redis, PostgreSQL or (embedded) memory, spent in memory.
  const limiter = createRateLimiter({
    kind: deps.kind,
    db: deps.db,
    ...(deps.redis ? { redis: deps.redis } : {}),
    now,
    onError: (error) => rateLimitStore.failed(error),
  });
  const rateLimitNotices = new RateLimitNotices(deps.uow, clock);
  const quotas = new QuotaRepository(deps.db, deps.changes.instanceId);
  const quotaNotices = new QuotaNotices(deps.uow, quotas, clock);
  const quotaStore = deps.streakOf('quota_store');
  // Per-key quotas: budget leased from the database (PGlite or PostgreSQL), spent in memory.
  const quotaMeter = new QuotaMeter({
    db: deps.db,
    repository: quotas,
    instanceId: deps.changes.instanceId,
    now,
    flushMs: deps.usageFlushMs,
    spentReport: deps.streakOf('quota_used'),
    onStoreError: (error) => quotaStore.failed(error),
    onLow: (keyId, quota, windowStart) => {
      quotaNotices.notice(keyId, quota, windowStart, 'low').catch(backgroundError);
    },
  });
  // A changed key may have a lowered or removed limit or quota, or a reset one: what this instance
  // held for it goes, and the next request leases anew (the same feed makes a disable exact).
  deps.changes.onChange((change) => {
    if (change.type === 'key') {
      limiter.forget(change.id);
      quotaMeter.forget(change.id);
    } else if (change.type === 'all') {
      limiter.forgetAll();
      quotaMeter.forgetAll();
    }
  });
  // The meters, and where their refusals are counted and announced: the admission calls each
  // by name (src/limits/limit-steps.ts). A rate limit's store outage refuses as `rate_limited`; a
  // quota's answers 503 `unavailable`, counted as none.
  const keyLimits: KeyLimits = {
    rateLimits: limiter,
    quotas: quotaMeter,
    usage: usageCounter,
    rateLimitNotices,
    quotaNotices,
    clock,
    backgroundError,
  };
  return {
    limiter,
    rateLimitNotices,
    quotas,
    quotaMeter,
    quotaNotices,
    keyLimits,
    start: () => quotaMeter.start(),
    close: async () => {
      await limiter.close();
      await quotaMeter.close();
    },
  };
}
