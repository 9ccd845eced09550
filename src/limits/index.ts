/**
 * Every limit an API key carries, in one room. The key check accepts a key; `checkLimits` then
 * answers for all of its limits with one verdict: admit (with the RateLimit header fields and what
 * whoami reports), or refuse (why, the fields, Retry-After). HTTP and MCP only turn that verdict
 * into headers and a body (src/http/key-limits.ts); the composition root only builds the room
 * (`createKeyLimits`).
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
 * - here: `KeyAllowance` (key-allowance.ts), one meter applied to one key, counting each refusal as
 *   its usage and announcing the first of a window or period; the notices: `api_key.rate_limited`
 *   (rate-limit-notices.ts, its windows' statements in notice-repository.ts), `api_key.quota_low`
 *   and `api_key.quota_exhausted` (quota-notices.ts), each announced once across instances; the
 *   wiring (create-key-limits.ts): which meter, counter and notice each limit uses, and the change
 *   feed that drops what an instance holds for a changed key; the order and the verdict
 *   (limit-check.ts), the header fields' values (fields.ts) and whoami's `limits` (whoami-limits.ts).
 *
 * A new kind of limit (say, per tenant): its words in src/shared/limit-terms.ts, its meter in a room
 * of its own (src/limits/<kind>/, declared in test/unit/architecture/rules.ts), a `KeyAllowance`
 * for it in create-key-limits.ts and a member of `KeyLimits`, a step in `checkLimits` at its place
 * in the order with its `LimitRefusal`, its member in fields.ts, and the catalog error its refusal
 * answers with (src/shared/errors.ts), mapped in src/http/key-limits.ts.
 */
export { checkLimits, type LimitRefusal, type LimitVerdict, type LimitsSeen } from './limit-check.ts';
export type { LimitFields } from './fields.ts';
export { KeyAllowance, type KeyLimits } from './key-allowance.ts';
export { createKeyLimits, type KeyLimitsDeps } from './create-key-limits.ts';
export { limitsJson, limitsView } from './whoami-limits.ts';
