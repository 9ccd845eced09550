import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

export type ThrottleOptions = {
  /** Failures allowed per window before the client is blocked. */
  points: number;
  windowSeconds: number;
  blockSeconds: number;
  keyPrefix: string;
  redis?: Redis | undefined;
};

/**
 * Counts failures only (a bad key, a wrong password) per client. Backed by Redis when one is
 * configured, so every instance shares the count; when Redis fails, rate-limiter-flexible's
 * insurance limiter keeps counting in memory, per instance, and nothing is blocked by the outage.
 */
export class FailureThrottle {
  private readonly limiter: RateLimiterAbstract;

  constructor(private readonly options: ThrottleOptions) {
    const memory = new RateLimiterMemory({
      points: options.points,
      duration: options.windowSeconds,
      blockDuration: options.blockSeconds,
      keyPrefix: options.keyPrefix,
    });
    this.limiter = options.redis
      ? new RateLimiterRedis({
          storeClient: options.redis,
          points: options.points,
          duration: options.windowSeconds,
          blockDuration: options.blockSeconds,
          keyPrefix: `airkey:${options.keyPrefix}`,
          insuranceLimiter: memory,
        })
      : memory;
  }

  /** Seconds until the client may try again, or 0 when it is not blocked. */
  async retryAfter(client: string): Promise<number> {
    try {
      const state = await this.limiter.get(client);
      // `points` failures are allowed; the attempt after them is refused.
      if (!state || state.consumedPoints < this.options.points) return 0;
      return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    } catch {
      return 0; // the store is down: never block on an outage
    }
  }

  async recordFailure(client: string): Promise<void> {
    try {
      await this.limiter.consume(client);
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) return; // store error: the insurance limiter counted
    }
  }

  /** Takes one point; false once the client has spent them all in this window. */
  async tryTake(client: string): Promise<boolean> {
    try {
      await this.limiter.consume(client);
      return true;
    } catch (outcome) {
      return !(outcome instanceof RateLimiterRes); // store error: allow
    }
  }

  async reset(client: string): Promise<void> {
    await this.limiter.delete(client).catch(() => {});
  }
}
