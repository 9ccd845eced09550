import type { RefusedKeyHolder } from '../keys/check/key-check.ts';
import type { Accepted } from '../keys/check/decide.ts';
import type { RateDecision } from '../limits/budget/rate-limiter.ts';
import {
  announceQuotaExhausted,
  announceRateLimited,
  limitFieldsOf,
  quotaRetryAfter,
  rateRefusedFields,
  recordQuotaExceeded,
  recordRateLimited,
  type KeyLimits,
} from '../limits/index.ts';
import type { RateLimit } from '../shared/limit-terms.ts';
import { findCredential, type CredentialResolvers, type CredentialSources } from './credential.ts';
import type { Admission, CredentialOutcome } from './outcome.ts';

/** What the admission needs: a resolver per kind of credential, and a key's limits. */
export type AdmissionDeps = { credentials: CredentialResolvers; limits: KeyLimits };

const MISSING = Object.freeze({ status: 'missing_credential' as const });
const AMBIGUOUS = Object.freeze({ status: 'ambiguous_credential' as const });

/**
 * A request's way from its headers to an answer, in one order: credential (found, one), state
 * (known, enabled, unexpired), address (the key's allowlist), rate (the key's rate limit), quota
 * (the key's quota). A request refused at one step consumes nothing at the later ones
 * (docs/keys.md (Quotas)). REST and MCP share it; each maps the outcome to its answer once.
 *
 * Synchronous while every step answers from what this instance holds (a cached key, budget held
 * for its limits, a client known to be blocked): no promise on the hot path. A refusal is
 * returned, never thrown: a flood of guesses is thousands a second, and a throw costs a walk of
 * the stack (docs/performance.md). A fault of a limit's store throws (or rejects) as before.
 */
export function admit(
  deps: AdmissionDeps,
  sources: CredentialSources,
  client: string,
  seen?: RefusedKeyHolder,
): Admission | Promise<Admission> {
  // 1. Credential.
  const credential = findCredential(sources);
  if (credential.kind === 'none') return MISSING;
  if (credential.kind === 'ambiguous') return AMBIGUOUS;
  // 2–3. State and address, by the credential's own resolver.
  const resolved =
    credential.kind === 'key'
      ? deps.credentials.key.resolve(credential, client, seen)
      : deps.credentials.oauth.resolve(credential, client, seen);
  if (!(resolved instanceof Promise)) return afterCredential(deps.limits, resolved);
  return resolved.then(
    (settled) => afterCredential(deps.limits, settled),
    (error: unknown): Admission => ({ status: 'unavailable', cause: error }),
  );
}

function afterCredential(limits: KeyLimits, outcome: CredentialOutcome): Admission | Promise<Admission> {
  if (outcome.status !== 'admitted') return outcome;
  // 4. Rate.
  const limit = outcome.rateLimit;
  if (limit === undefined) return outcome.quota === undefined ? outcome : quotaStep(limits, outcome, undefined);
  return then(limits.rateLimits.take(outcome.keyId, limit), (rate) =>
    rate.ok ? quotaStep(limits, outcome, rate) : rateLimited(limits, outcome, limit, rate),
  );
}

function rateLimited(limits: KeyLimits, key: Accepted, limit: RateLimit, rate: RateDecision): Admission {
  // A refusal for want of the store is `rate_limited` too: the instance refuses rather than guess.
  recordRateLimited(limits, key);
  if (rate.firstRefusalInWindow) announceRateLimited(limits, key, limit, rate);
  return {
    status: 'rate_limited',
    key,
    fields: rateRefusedFields(limit, rate),
    retryAfterSeconds: rate.resetSeconds,
  };
}

// 5. Quota.
function quotaStep(limits: KeyLimits, key: Accepted, rate: RateDecision | undefined): Admission | Promise<Admission> {
  const quota = key.quota;
  if (quota === undefined) return admitted(key, rate, undefined);
  return then(limits.quotas.take(key.keyId, quota), (settled) => {
    if (settled.ok) return admitted(key, rate, settled);
    // ...but for a quota it is 503 `unavailable`, which is no quota_exceeded and counted as none.
    if (!settled.unavailable) recordQuotaExceeded(limits, key);
    if (settled.firstRefusalInWindow) announceQuotaExhausted(limits, key, quota, settled);
    const fields = limitFieldsOf(key, rate, settled);
    if (settled.unavailable) return { status: 'quota_unavailable', key, fields };
    return {
      status: 'quota_exceeded',
      key,
      period: quota.window,
      fields,
      retryAfterSeconds: quotaRetryAfter(settled),
    };
  });
}

/** A limited key let through: its fields, and what whoami reports. */
function admitted(key: Accepted, rate: RateDecision | undefined, quota: RateDecision | undefined): Admission {
  return {
    ok: true,
    status: 'admitted',
    credential: key.credential,
    principal: key.principal,
    keyId: key.keyId,
    rateLimit: key.rateLimit,
    quota: key.quota,
    fields: limitFieldsOf(key, rate, quota),
    limitsSeen: { rateLimit: key.rateLimit, rate, quota: key.quota, quotaDecision: quota },
  };
}

/** The next step at once when the meter answered at once; after the promise otherwise. */
function then<T>(
  decision: RateDecision | Promise<RateDecision>,
  next: (settled: RateDecision) => T | Promise<T>,
): T | Promise<T> {
  return decision instanceof Promise ? decision.then(next) : next(decision);
}
