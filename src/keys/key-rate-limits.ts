import type { RateLimit } from '../ratelimit/rate-limit.ts';
import type { RateDecision, RateLimiter } from '../ratelimit/rate-limiter.ts';
import type { Clock } from '../shared/clock.ts';

/** Where a refusal over the limit is counted (src/usage's UsageCounter). */
export type RateLimitedCounter = { rateLimited(keyId: string, tenantId: string, atMs: number): void };

/** Told of this instance's first refusal of a key in a window (the webhook event is sent from there). */
export type FirstRefusal = (keyId: string, limit: RateLimit, windowSeconds: number) => void;

/**
 * A key's rate limit, applied after the key check accepted the key (docs/keys.md (Rate limits)).
 * Transport-agnostic: REST and MCP reach it through the same hook. A refusal is counted as
 * `rate_limited` usage instead of `ok` (the key check counted it ok when it accepted the key).
 */
export class KeyRateLimits {
  private readonly limiter: Pick<RateLimiter, 'take'>;
  private readonly counter: RateLimitedCounter;
  private readonly clock: Clock;
  private readonly onFirstRefusal: FirstRefusal;
  constructor(
    limiter: Pick<RateLimiter, 'take'>,
    counter: RateLimitedCounter,
    clock: Clock,
    onFirstRefusal: FirstRefusal = () => undefined,
  ) {
    this.limiter = limiter;
    this.counter = counter;
    this.clock = clock;
    this.onFirstRefusal = onFirstRefusal;
  }

  /** Synchronous while this instance holds budget for the key's window: no promise, no I/O. */
  take(keyId: string, tenantId: string, limit: RateLimit): RateDecision | Promise<RateDecision> {
    const decision = this.limiter.take(keyId, limit);
    if (decision instanceof Promise) return decision.then((settled) => this.counted(settled, keyId, tenantId, limit));
    return this.counted(decision, keyId, tenantId, limit);
  }

  private counted(decision: RateDecision, keyId: string, tenantId: string, limit: RateLimit): RateDecision {
    if (decision.ok) return decision;
    this.counter.rateLimited(keyId, tenantId, this.clock.now().getTime());
    if (decision.firstRefusalInWindow) this.onFirstRefusal(keyId, limit, decision.windowSeconds);
    return decision;
  }
}
