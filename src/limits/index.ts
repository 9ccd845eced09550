/**
 * Every limit an API key carries, in one room. The key check accepts a key; the admission
 * (src/admission/admit.ts) then takes the rate limit and the quota in order with the meters and
 * effects of `KeyLimits`, and the transport turns its outcome into headers and a body
 * (src/http/admission-answer.ts); the composition root only builds the room (`createKeyLimits`).
 *
 * The room builds on the key core and the key core needs nothing of it: the words a key's limits
 * are made of (`RateLimit`, `Quota`, `KeyQuota`, their windows and periods) live in
 * src/shared/limit-terms.ts, which both read; the key core reaches the quota counts through its
 * own port (`QuotaCounts`, src/keys/lifecycle/limit-steps.ts), which the quota repository fills.
 * - budget/: the leased-budget engine every meter spends, whether a rate limit's window or a
 *   quota's period: the leases, the limiter, the stores in memory, PostgreSQL and Redis, and which
 *   store to use;
 * - quota/: a quota's slices (quota.ts), its meter on the budget room's leases and its counts in
 *   the database (quota-repository.ts, which also claims the periods' notices);
 * - here: `KeyLimits` and the named effects of a refusal (limit-steps.ts: `recordRateLimited`,
 *   `recordQuotaExceeded`, `announceRateLimited`, `announceQuotaExhausted`) with the header fields
 *   of each step; the notices: `api_key.rate_limited` (rate-limit-notices.ts, its windows'
 *   statements in notice-repository.ts), `api_key.quota_low` and `api_key.quota_exhausted`
 *   (quota-notices.ts), each announced once across instances; the wiring (create-key-limits.ts):
 *   the meters, counter and notices, and the change feed that drops what an instance holds for a
 *   changed key; the header fields' values (fields.ts) and whoami's `limits` (whoami-limits.ts).
 *
 * A new kind of limit (say, per tenant): its words in src/shared/limit-terms.ts, its meter in a room
 * of its own (src/limits/<kind>/, declared in test/unit/architecture/rules.ts) and a member of
 * `KeyLimits`, its effects in limit-steps.ts, a step in src/admission/admit.ts at its place in the
 * order with its status in src/admission/outcome.ts, and the catalog error its refusal answers
 * with (src/shared/errors.ts), mapped in src/http/admission-answer.ts.
 */
export type { LimitFields } from './fields.ts';
export {
  announceQuotaExhausted,
  announceRateLimited,
  limitFieldsOf,
  quotaRetryAfter,
  rateRefusedFields,
  recordQuotaExceeded,
  recordRateLimited,
  type KeyLimits,
  type LimitsSeen,
} from './limit-steps.ts';
export { createKeyLimits } from './create-key-limits.ts';
export { limitsJson, limitsView } from './whoami-limits.ts';
