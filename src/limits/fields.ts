import { WINDOW_SECONDS, type KeyQuota, type RateLimit } from '../shared/limit-terms.ts';
import type { RateDecision } from './budget/rate-limiter.ts';

/**
 * The RateLimit header fields' values (draft-ietf-httpapi-ratelimit-headers), one list member per
 * limit consulted: `"key"` for the rate limit, `"quota"` for the quota. Plain strings: the
 * transport sets them as they are.
 */
export type LimitFields = { policy: string; current: string };

// The key cache's own limit objects, replaced when a limit changes: their policy members are
// built once, not per response.
const policies = new WeakMap<RateLimit, string>();
const quotaPolicies = new WeakMap<KeyQuota, { windowSeconds: number; policy: string }>();

export function ratePolicyOf(limit: RateLimit): string {
  let policy = policies.get(limit);
  if (policy === undefined)
    policies.set(limit, (policy = `"key";q=${limit.requests};w=${WINDOW_SECONDS[limit.window]}`));
  return policy;
}

export function rateFieldOf(d: RateDecision): string {
  return `"key";r=${d.remaining};t=${d.resetSeconds}`;
}

/** `w` is the period's length (a month's varies); a `total` quota never ends: no `w`, and no `t` in its field. */
export function quotaPolicyOf(quota: KeyQuota, d: RateDecision): string {
  const known = quotaPolicies.get(quota);
  if (known !== undefined && known.windowSeconds === d.windowSeconds) return known.policy;
  const policy =
    d.windowSeconds === Infinity ? `"quota";q=${quota.requests}` : `"quota";q=${quota.requests};w=${d.windowSeconds}`;
  quotaPolicies.set(quota, { windowSeconds: d.windowSeconds, policy });
  return policy;
}

export function quotaFieldOf(d: RateDecision): string {
  return d.resetsAtMs === Infinity ? `"quota";r=${d.remaining}` : `"quota";r=${d.remaining};t=${d.resetSeconds}`;
}

/** One member, or both in the order the limits were consulted. */
export function members(rate: string | undefined, quota: string | undefined): string {
  return rate && quota ? `${rate}, ${quota}` : (rate ?? quota ?? '');
}
