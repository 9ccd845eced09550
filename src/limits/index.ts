/**
 * Every limit an API key carries, in one room. The key check accepts a key; `checkLimits` then
 * answers for all of its limits with one verdict: admit (with the RateLimit header fields and what
 * whoami reports), or refuse (why, the fields, Retry-After). HTTP and MCP only turn that verdict
 * into headers and a body (src/http/key-limits.ts); the composition root only builds the room
 * (`createKeyLimits`).
 *
 * Two floors, so the key core can name a limit without the verdict naming it back: the lower
 * rooms come before src/keys (which stores and checks a key's rate limit and quota) and import
 * nothing of this root; this root comes after src/keys (its events, its view, the accepted key).
 * - rate/ (lower): a rate limit's windows (rate-limit.ts) and the leased budgets every meter spends:
 *   the leases, the limiter, the stores in memory, PostgreSQL and Redis, and which store to use;
 * - quota/ (lower): a quota's periods and slices (quota.ts), its meter on the rate room's leases
 *   and its counts in the database (quota-repository.ts, which also claims the periods' notices);
 * - here: `KeyAllowance` (key-allowance.ts), one meter applied to one key, counting each refusal as
 *   its usage and announcing the first of a window or period; the notices: `api_key.rate_limited`
 *   (rate-limit-notices.ts, its windows' statements in notice-repository.ts), `api_key.quota_low`
 *   and `api_key.quota_exhausted` (quota-notices.ts), each announced once across instances; the
 *   wiring (create-key-limits.ts): which meter, counter and notice each limit uses, and the change
 *   feed that drops what an instance holds for a changed key; the order and the verdict
 *   (limit-check.ts), the header fields' values (fields.ts) and whoami's `limits` (whoami-limits.ts).
 *
 * A new kind of limit (say, per tenant): its vocabulary and meter in a lower room of its own
 * (src/limits/<kind>/, placed before src/keys in test/unit/architecture.test.ts), a `KeyAllowance`
 * for it in create-key-limits.ts and a member of `KeyLimits`, a step in `checkLimits` at its place
 * in the order with its `LimitRefusal`, its member in fields.ts, and the catalog error its refusal
 * answers with (src/shared/errors.ts), mapped in src/http/key-limits.ts.
 */
export { checkLimits, type LimitRefusal, type LimitVerdict, type LimitsSeen } from './limit-check.ts';
export type { LimitFields } from './fields.ts';
export { KeyAllowance, type KeyLimits } from './key-allowance.ts';
export { createKeyLimits, type KeyLimitsDeps } from './create-key-limits.ts';
export { limitsJson, limitsView } from './whoami-limits.ts';
