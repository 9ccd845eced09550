import type { Allowance, RateDecision } from './budget/rate-limiter.ts';
import type { Clock } from '../shared/clock.ts';
import type { KeyQuota, RateLimit } from '../shared/limit-terms.ts';

/** What stands between an accepted key and its route: its rate limit, then its quota. */
export type KeyLimits = { rateLimits: KeyAllowance<RateLimit>; quotas: KeyAllowance<KeyQuota> };

/** What meters a key's allowance: the rate limiter, or the quota meter. */
export type Meter<A extends Allowance> = {
  take(keyId: string, allowance: A): RateDecision | Promise<RateDecision>;
};

/**
 * Where a refusal is counted (the usage counter's `rateLimited` or `quotaExceeded`). A refusal for
 * want of the store (`decision.unavailable`) is the caller's to count or not: a rate limit calls it
 * `rate_limited`, a quota answers 503 and counts nothing.
 */
export type RefusalCounter = (keyId: string, tenantId: string, atMs: number, decision: RateDecision) => void;

/** Told of this instance's first refusal of a key in a window or period (the webhook event is sent from there). */
export type FirstRefusal<A extends Allowance> = (keyId: string, allowance: A, decision: RateDecision) => void;

/**
 * A key's rate limit or quota, applied after the key check accepted the key (docs/keys.md (Rate
 * limits), (Quotas)). Transport-agnostic: REST and MCP reach it through the same hook. A refusal is
 * counted as its own usage instead of `ok` (the key check counted it ok when it accepted the key).
 */
export class KeyAllowance<A extends Allowance> {
  private readonly meter: Meter<A>;
  private readonly countRefusal: RefusalCounter;
  private readonly clock: Clock;
  private readonly onFirstRefusal: FirstRefusal<A>;
  constructor(meter: Meter<A>, countRefusal: RefusalCounter, clock: Clock, onFirstRefusal: FirstRefusal<A>) {
    this.meter = meter;
    this.countRefusal = countRefusal;
    this.clock = clock;
    this.onFirstRefusal = onFirstRefusal;
  }

  /** Synchronous while this instance holds budget for the key's window: no promise, no I/O. */
  take(keyId: string, tenantId: string, allowance: A): RateDecision | Promise<RateDecision> {
    const decision = this.meter.take(keyId, allowance);
    if (decision instanceof Promise)
      return decision.then((settled) => this.counted(settled, keyId, tenantId, allowance));
    return this.counted(decision, keyId, tenantId, allowance);
  }

  private counted(decision: RateDecision, keyId: string, tenantId: string, allowance: A): RateDecision {
    if (decision.ok) return decision;
    this.countRefusal(keyId, tenantId, this.clock.nowMs(), decision);
    if (decision.firstRefusalInWindow) this.onFirstRefusal(keyId, allowance, decision);
    return decision;
  }
}
