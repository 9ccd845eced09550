import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Accepted } from '../keys/decide.ts';
import type { KeyLimits } from '../keys/key-allowance.ts';
import type { KeyQuota } from '../quotas/quota.ts';
import { WINDOW_SECONDS, type RateLimit } from '../ratelimit/rate-limit.ts';
import type { RateDecision } from '../ratelimit/rate-limiter.ts';
import { QuotaExceededError, RateLimitedError, withoutStack } from '../shared/errors.ts';
import { problemFor, sendError, sendProblem } from './problem.ts';

export type { KeyLimits } from '../keys/key-allowance.ts';

/** What a limited key had left after this request, for whoami's `limits`. */
export type LimitsSeen = {
  rateLimit: RateLimit | undefined;
  rate: RateDecision | undefined;
  quota: KeyQuota | undefined;
  quotaDecision: RateDecision | undefined;
};

/**
 * The rate limit, then the quota (docs/keys.md (Quotas)): a request refused over its rate limit
 * consumes no quota. Callback style, as the key check: a key this instance holds budget for is
 * passed or refused without a promise. Every response to a limited key carries the RateLimit
 * header fields (draft-ietf-httpapi-ratelimit-headers), one list member per limit consulted.
 */
export function applyLimits(
  limits: KeyLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  accepted: Accepted,
): void {
  const limit = accepted.rateLimit;
  if (limit === undefined) return checkQuota(limits, request, reply, done, accepted, undefined);
  let decision: RateDecision | Promise<RateDecision>;
  try {
    decision = limits.rateLimits.take(accepted.keyId, accepted.principal.tenant.id, limit);
  } catch (error) {
    return done(error as Error);
  }
  if (decision instanceof Promise)
    decision.then((settled) => rateChecked(limits, request, reply, done, accepted, settled), done);
  else rateChecked(limits, request, reply, done, accepted, decision);
}

function rateChecked(
  limits: KeyLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  accepted: Accepted,
  d: RateDecision,
): void {
  if (d.ok) return checkQuota(limits, request, reply, done, accepted, d);
  // Lowercase, as Fastify stores and sends them: a name it must lowercase is a new string per response.
  reply.header('ratelimit-policy', policyOf(accepted.rateLimit!));
  reply.header('ratelimit', `"key";r=0;t=${d.resetSeconds}`);
  reply.header('retry-after', String(d.resetSeconds));
  sendError(request, reply, RATE_LIMITED);
}

function checkQuota(
  limits: KeyLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  accepted: Accepted,
  rate: RateDecision | undefined,
): void {
  const quota = accepted.quota;
  if (quota === undefined) return passed(request, reply, done, accepted, rate, undefined);
  let decision: RateDecision | Promise<RateDecision>;
  try {
    decision = limits.quotas.take(accepted.keyId, accepted.principal.tenant.id, quota);
  } catch (error) {
    return done(error as Error);
  }
  if (decision instanceof Promise)
    decision.then((settled) => passed(request, reply, done, accepted, rate, settled), done);
  else passed(request, reply, done, accepted, rate, decision);
}

function passed(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  accepted: Accepted,
  rate: RateDecision | undefined,
  quota: RateDecision | undefined,
): void {
  if (rate === undefined && quota === undefined) return done();
  const ratePolicy = rate && policyOf(accepted.rateLimit!);
  const quotaPolicy = quota && quotaPolicyOf(accepted.quota!, quota);
  reply.header(
    'ratelimit-policy',
    ratePolicy && quotaPolicy ? `${ratePolicy}, ${quotaPolicy}` : (ratePolicy ?? quotaPolicy),
  );
  const rateField = rate && `"key";r=${rate.remaining};t=${rate.resetSeconds}`;
  const quotaField = quota && quotaFieldOf(quota);
  reply.header('ratelimit', rateField && quotaField ? `${rateField}, ${quotaField}` : (rateField ?? quotaField));
  if (quota === undefined || quota.ok) {
    request.limitsSeen = { rateLimit: accepted.rateLimit, rate, quota: accepted.quota, quotaDecision: quota };
    return done();
  }
  // The count could not be asked and nothing is held: never "exceeded", which would be untrue.
  if (quota.unavailable) {
    request.problemCode = 'unavailable';
    return void sendProblem(reply, QUOTA_UNAVAILABLE);
  }
  if (quota.resetsAtMs !== Infinity) reply.header('retry-after', String(quota.resetSeconds));
  sendError(request, reply, QUOTA_EXCEEDED[accepted.quota!.window]);
}

// The key cache's own limit objects, replaced when a limit changes: their policy members are
// built once, not per response.
const policies = new WeakMap<RateLimit, string>();
const quotaPolicies = new WeakMap<KeyQuota, { windowSeconds: number; policy: string }>();

function policyOf(limit: RateLimit): string {
  let policy = policies.get(limit);
  if (policy === undefined)
    policies.set(limit, (policy = `"key";q=${limit.requests};w=${WINDOW_SECONDS[limit.window]}`));
  return policy;
}

/** `w` is the period's length (a month's varies); a `total` quota never ends: no `w`, and no `t` in its field. */
function quotaPolicyOf(quota: KeyQuota, d: RateDecision): string {
  const known = quotaPolicies.get(quota);
  if (known !== undefined && known.windowSeconds === d.windowSeconds) return known.policy;
  const policy =
    d.windowSeconds === Infinity ? `"quota";q=${quota.requests}` : `"quota";q=${quota.requests};w=${d.windowSeconds}`;
  quotaPolicies.set(quota, { windowSeconds: d.windowSeconds, policy });
  return policy;
}

function quotaFieldOf(d: RateDecision): string {
  return d.resetsAtMs === Infinity ? `"quota";r=${d.remaining}` : `"quota";r=${d.remaining};t=${d.resetSeconds}`;
}

// Frozen refusals built once without a stack: the wait is in the header fields, so each body
// never changes and is serialised once.
const RATE_LIMITED = Object.freeze(withoutStack(() => new RateLimitedError()));
const QUOTA_EXCEEDED = {
  day: Object.freeze(withoutStack(() => new QuotaExceededError('day'))),
  month: Object.freeze(withoutStack(() => new QuotaExceededError('month'))),
  total: Object.freeze(withoutStack(() => new QuotaExceededError('total'))),
};
const QUOTA_UNAVAILABLE = problemFor(
  'unavailable',
  "The service cannot reach the count of this key's quota right now. Retry shortly.",
);
