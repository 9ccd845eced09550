import type { Clock } from '../shared/clock.ts';
import type { KeyQuota, RateLimit } from '../shared/limit-terms.ts';
import type { UsageCounter } from '../usage/usage-counter.ts';
import type { Allowance, RateDecision } from './budget/rate-limiter.ts';
import { members, quotaFieldOf, quotaPolicyOf, rateFieldOf, ratePolicyOf, type LimitFields } from './fields.ts';
import type { QuotaNotices } from './quota-notices.ts';
import type { RateLimitNotices } from './rate-limit-notices.ts';

/** What meters a key's allowance: the rate limiter, or the quota meter. */
export type Meter<A extends Allowance> = {
  take(keyId: string, allowance: A): RateDecision | Promise<RateDecision>;
};

/**
 * What stands between an accepted key and its route (docs/keys.md (Rate limits), (Quotas)): the two
 * meters, and where a refusal is counted and announced. The admission (src/admission/admit.ts)
 * takes the steps in order and calls the effects below by name.
 */
export type KeyLimits = {
  rateLimits: Meter<RateLimit>;
  quotas: Meter<KeyQuota>;
  usage: Pick<UsageCounter, 'rateLimited' | 'quotaExceeded'>;
  rateLimitNotices: Pick<RateLimitNotices, 'notice'>;
  quotaNotices: Pick<QuotaNotices, 'notice'>;
  clock: Clock;
  backgroundError: (error: unknown) => void;
};

/** What a limited key had left after this request, for whoami's `limits`. */
export type LimitsSeen = {
  rateLimit: RateLimit | undefined;
  rate: RateDecision | undefined;
  quota: KeyQuota | undefined;
  quotaDecision: RateDecision | undefined;
};

/** The key that passed the key check, as far as its limits go. */
export type LimitedKey = {
  keyId: string;
  rateLimit: RateLimit | undefined;
  quota: KeyQuota | undefined;
  principal: { tenant: { id: string } };
};

// The effects of a refusal, each named: counted as the key's usage instead of `ok` (the key check
// counted it ok when it accepted the key), and announced once per window or period.

/** A refusal over the rate limit, counted as `rate_limited` (a store outage refuses and counts so too). */
export function recordRateLimited(limits: KeyLimits, key: LimitedKey): void {
  limits.usage.rateLimited(key.keyId, key.principal.tenant.id, limits.clock.nowMs());
}

/** A refusal over the quota, counted as `quota_exceeded` (not when the count was unreachable: 503, counted as none). */
export function recordQuotaExceeded(limits: KeyLimits, key: LimitedKey): void {
  limits.usage.quotaExceeded(key.keyId, key.principal.tenant.id, limits.clock.nowMs());
}

/** This instance's first refusal of the key in the window: `api_key.rate_limited`, once across instances. */
export function announceRateLimited(
  limits: KeyLimits,
  key: LimitedKey,
  limit: RateLimit,
  decision: RateDecision,
): void {
  limits.rateLimitNotices.notice(key.keyId, limit, decision.windowSeconds).catch(limits.backgroundError);
}

/** This instance's first refusal of the key in the period: `api_key.quota_exhausted`, once across instances. */
export function announceQuotaExhausted(
  limits: KeyLimits,
  key: LimitedKey,
  quota: KeyQuota,
  decision: RateDecision,
): void {
  limits.quotaNotices.notice(key.keyId, quota, decision.startsAtMs, 'exhausted').catch(limits.backgroundError);
}

// The header fields (draft-ietf-httpapi-ratelimit-headers): one member per limit consulted.

export function rateRefusedFields(limit: RateLimit, decision: RateDecision): LimitFields {
  return { policy: ratePolicyOf(limit), current: `"key";r=0;t=${decision.resetSeconds}` };
}

export function limitFieldsOf(
  key: LimitedKey,
  rate: RateDecision | undefined,
  quota: RateDecision | undefined,
): LimitFields {
  return {
    policy: members(rate && ratePolicyOf(key.rateLimit!), quota && quotaPolicyOf(key.quota!, quota)),
    current: members(rate && rateFieldOf(rate), quota && quotaFieldOf(quota)),
  };
}

/** The seconds for Retry-After of a quota refusal: none for a `total` quota, which never resets. */
export function quotaRetryAfter(decision: RateDecision): number | undefined {
  return decision.resetsAtMs === Infinity ? undefined : decision.resetSeconds;
}
