import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/handle.ts';
import { systemClock, type Clock } from '../shared/clock.ts';
import { DatabaseLimiter } from './sign-in-attempt-repository.ts';

export type ThrottleOptions = {
  /** Failures allowed per window before the client is blocked. */
  points: number;
  windowSeconds: number;
  blockSeconds: number;
  keyPrefix: string;
  redis?: Redis | undefined;
  /** When a remembered block ends; the system clock unless the services pass theirs. */
  clock?: Clock;
  /**
   * Without Redis, count in this database (every instance on it shares the count) rather than in
   * memory. For counts that must hold across instances; no block beyond the window (`blockSeconds` 0).
   */
  db?: Db | undefined;
};

/** The store calls a throttle makes: rate-limiter-flexible's limiters, or the database's. */
type Limiter = {
  consume(key: string): Promise<RateLimiterRes>;
  get(key: string): Promise<RateLimiterRes | null>;
  reward(key: string, points: number): Promise<unknown>;
  delete(key: string): Promise<unknown>;
};

/** A point taken before the secret is checked: refused, or taken (the count then includes it). */
export type Take = { ok: true; count: number } | { ok: false; retryAfterSeconds: number };

/**
 * Counts failures only (a bad key, a wrong password) per client. Backed by Redis when one is
 * configured, so every instance shares the count; when Redis fails, rate-limiter-flexible's
 * insurance limiter keeps counting in memory, per instance, and nothing is blocked by the outage.
 * So the store's only refusal is a `RateLimiterRes` (the points are spent); any other rejection
 * is a fault (in the insurance limiter or here) and is thrown, never read as "not blocked".
 *
 * A block this instance has seen is remembered until it ends: a blocked client's next requests
 * are then answered without asking the store (a promise each, a round trip with Redis), which is
 * most of what a flood of guesses cost beyond an accepted request. A block
 * never ends early (it is only lifted by `reset`, which a blocked client cannot reach), so the
 * memory says what the store would.
 */
export class FailureThrottle {
  private readonly limiter: Limiter;
  /** Client → the instant (ms) its block ends. Bounded: a flood from many addresses evicts, never grows. */
  private readonly knownBlocks = new LRUCache<string, number>({ max: 10_000 });

  private readonly options: ThrottleOptions;
  private readonly clock: Clock;
  constructor(options: ThrottleOptions) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.limiter = limiterFor(options, this.clock);
  }

  /** Attempts allowed per window. */
  get points(): number {
    return this.options.points;
  }

  /** Seconds left of a block this instance has already seen, or 0. Synchronous: never asks the store. */
  knownBlockSeconds(client: string): number {
    const until = this.knownBlocks.get(client);
    if (until === undefined) return 0;
    const left = until - this.clock.nowMs();
    if (left > 0) return Math.ceil(left / 1000);
    this.knownBlocks.delete(client);
    return 0;
  }

  /** Seconds until the client may try again, or 0 when it is not blocked. */
  async retryAfter(client: string): Promise<number> {
    const known = this.knownBlockSeconds(client);
    if (known > 0) return known;
    // An unreachable store answers from the insurance limiter: an outage never blocks.
    const state = await this.limiter.get(client);
    // `points` failures are allowed; the attempt after them is refused.
    if (!state || state.consumedPoints < this.options.points) return 0;
    return this.remember(client, state.msBeforeNext);
  }

  async recordFailure(client: string): Promise<void> {
    try {
      await this.limiter.consume(client);
    } catch (outcome) {
      // Spent: the failure is counted all the same. Anything else is a fault.
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
    }
  }

  /** Takes one point; false once the client has spent them all in this window. */
  async tryTake(client: string): Promise<boolean> {
    if (this.knownBlockSeconds(client) > 0) return false;
    try {
      await this.limiter.consume(client);
      return true;
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      this.remember(client, outcome.msBeforeNext);
      return false;
    }
  }

  /**
   * Takes one point before the secret it stands for is checked, so attempts sent together cannot
   * all be checked: the store counts atomically. Always asks the store (a remembered block may
   * have been lifted by a success on another instance).
   */
  async take(client: string): Promise<Take> {
    try {
      const taken = await this.limiter.consume(client);
      return { ok: true, count: taken.consumedPoints };
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) };
    }
  }

  /** Gives back a point taken for an attempt that turned out not to count (a success). */
  async giveBack(client: string): Promise<void> {
    await this.limiter.reward(client, 1);
  }

  async reset(client: string): Promise<void> {
    this.knownBlocks.delete(client);
    await this.limiter.delete(client);
  }

  private remember(client: string, msBeforeNext: number): number {
    this.knownBlocks.set(client, this.clock.nowMs() + msBeforeNext);
    return Math.max(1, Math.ceil(msBeforeNext / 1000));
  }
}

/** Redis when there is one (memory insures it); else the database when asked for; else memory. */
function limiterFor(options: ThrottleOptions, clock: Clock): Limiter {
  const memory = new RateLimiterMemory({
    points: options.points,
    duration: options.windowSeconds,
    blockDuration: options.blockSeconds,
    keyPrefix: options.keyPrefix,
  });
  if (options.redis) {
    return new RateLimiterRedis({
      storeClient: options.redis,
      points: options.points,
      duration: options.windowSeconds,
      blockDuration: options.blockSeconds,
      keyPrefix: `airkey:${options.keyPrefix}`,
      insuranceLimiter: memory,
    });
  }
  return options.db ? new DatabaseLimiter({ db: options.db, ...options, clock }) : memory;
}
