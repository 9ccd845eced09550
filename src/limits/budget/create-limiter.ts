import type { Redis } from 'ioredis';
import type { Db } from '../../db/handle.ts';
import { MemoryBudgetStore, PostgresBudgetStore, RedisBudgetStore, type BudgetStore } from './budget-store.ts';
import { RateLimiter } from './rate-limiter.ts';

export type CreateRateLimiterOptions = {
  kind: 'pglite' | 'postgres';
  db: Db;
  redis?: Redis | undefined;
  now: () => number;
  onError?: (error: unknown) => void;
};

/**
 * Where the shared counts live: Redis when given, else PostgreSQL (rate_limit_windows), else memory
 * (the embedded mode has one process, so nothing else could share them).
 */
export function createRateLimiter(options: CreateRateLimiterOptions): RateLimiter {
  const store: BudgetStore = options.redis
    ? new RedisBudgetStore(options.redis)
    : options.kind === 'postgres'
      ? new PostgresBudgetStore(options.db, options.onError)
      : new MemoryBudgetStore();
  return new RateLimiter({ store, now: options.now, ...(options.onError ? { onError: options.onError } : {}) });
}
