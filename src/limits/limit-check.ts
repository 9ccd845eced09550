import type { Accepted } from '../keys/check/decide.ts';
import type { KeyQuota, QuotaPeriod, RateLimit } from '../shared/limit-terms.ts';
import type { RateDecision } from './budget/rate-limiter.ts';
import { members, quotaFieldOf, quotaPolicyOf, rateFieldOf, ratePolicyOf, type LimitFields } from './fields.ts';
import type { KeyLimits } from './key-allowance.ts';

/** What a limited key had left after this request, for whoami's `limits`. */
export type LimitsSeen = {
  rateLimit: RateLimit | undefined;
  rate: RateDecision | undefined;
  quota: KeyQuota | undefined;
  quotaDecision: RateDecision | undefined;
};

/** Why a request was refused: over its rate limit, over its quota, or its quota's count unreachable. */
export type LimitRefusal = 'rate_limited' | 'quota_exceeded' | 'unavailable';

/**
 * The one answer of a key's limits. Admitted: the header fields (none for a key without limits)
 * and what whoami reports. Refused: why, the period a quota refusal names, the fields and the
 * seconds for Retry-After (none for a `total` quota, nor for an unreachable count).
 */
export type LimitVerdict =
  | { admit: true; fields: LimitFields | undefined; seen: LimitsSeen | undefined }
  | {
      admit: false;
      refusal: LimitRefusal;
      period: QuotaPeriod | undefined;
      fields: LimitFields;
      retryAfterSeconds: number | undefined;
    };

/** The key that passed the key check, as far as its limits go. */
export type LimitedKey = Pick<Accepted, 'keyId' | 'rateLimit' | 'quota'> & { principal: { tenant: { id: string } } };

const UNLIMITED: LimitVerdict = Object.freeze({ admit: true, fields: undefined, seen: undefined });

/**
 * Every limit of a key, in order: the rate limit, then the quota (a request refused at one step
 * consumes nothing at the later ones, docs/keys.md (Quotas)). Synchronous while this instance
 * holds budget for each: no promise on the hot path. Refusals are counted and announced by the
 * meters' allowances (key-allowance.ts); the caller only turns the verdict into its answer.
 */
export function checkLimits(limits: KeyLimits, key: LimitedKey): LimitVerdict | Promise<LimitVerdict> {
  const limit = key.rateLimit;
  if (limit === undefined) return checkQuota(limits, key, undefined);
  return then(limits.rateLimits.take(key.keyId, key.principal.tenant.id, limit), (rate) =>
    rate.ok ? checkQuota(limits, key, rate) : rateLimited(limit, rate),
  );
}

function checkQuota(limits: KeyLimits, key: LimitedKey, rate: RateDecision | undefined) {
  const quota = key.quota;
  if (quota === undefined) return verdictOf(key, rate, undefined);
  return then(limits.quotas.take(key.keyId, key.principal.tenant.id, quota), (settled) =>
    verdictOf(key, rate, settled),
  );
}

/** The next step at once when the meter answered at once; after the promise otherwise. */
function then<T>(
  decision: RateDecision | Promise<RateDecision>,
  next: (settled: RateDecision) => T | Promise<T>,
): T | Promise<T> {
  return decision instanceof Promise ? decision.then(next) : next(decision);
}

function rateLimited(limit: RateLimit, d: RateDecision): LimitVerdict {
  return {
    admit: false,
    refusal: 'rate_limited',
    period: undefined,
    fields: { policy: ratePolicyOf(limit), current: `"key";r=0;t=${d.resetSeconds}` },
    retryAfterSeconds: d.resetSeconds,
  };
}

function verdictOf(key: LimitedKey, rate: RateDecision | undefined, quota: RateDecision | undefined): LimitVerdict {
  if (rate === undefined && quota === undefined) return UNLIMITED;
  const fields = {
    policy: members(rate && ratePolicyOf(key.rateLimit!), quota && quotaPolicyOf(key.quota!, quota)),
    current: members(rate && rateFieldOf(rate), quota && quotaFieldOf(quota)),
  };
  if (quota === undefined || quota.ok) {
    const seen = { rateLimit: key.rateLimit, rate, quota: key.quota, quotaDecision: quota };
    return { admit: true, fields, seen };
  }
  // The count could not be asked and nothing is held: never "exceeded", which would be untrue.
  if (quota.unavailable)
    return { admit: false, refusal: 'unavailable', period: undefined, fields, retryAfterSeconds: undefined };
  return {
    admit: false,
    refusal: 'quota_exceeded',
    period: key.quota!.window,
    fields,
    retryAfterSeconds: quota.resetsAtMs === Infinity ? undefined : quota.resetSeconds,
  };
}
