/**
 * Every limit an API key carries, in one room. The key check accepts a key; `checkLimits` then
 * answers for all of its limits with one verdict: admit (with the RateLimit header fields and what
 * whoami reports), or refuse (why, the fields, Retry-After). HTTP and MCP only turn that verdict
 * into headers and a body (src/http/key-limits.ts); the composition root only builds the room
 * (`createKeyLimits`).
 *
 * What lives where:
 * - the meters: rate limits' leased budgets and their stores in src/ratelimit/, quotas' periods,
 *   meter and counts in src/quotas/ (the leases are shared by both);
 * - `KeyAllowance` (key-allowance.ts): one meter applied to one key, counting each refusal as its
 *   usage and announcing the first of a window or period;
 * - the notices: `api_key.rate_limited` (rate-limit-notices.ts), `api_key.quota_low` and
 *   `api_key.quota_exhausted` (quota-notices.ts), each announced once across instances (the
 *   rate-limit windows' statements in notice-repository.ts, the quota periods' in src/quotas/);
 * - the wiring (create-key-limits.ts): which meter, counter and notice each limit uses, and the
 *   change feed that drops what an instance holds for a changed key;
 * - the order and the verdict (limit-check.ts), the header fields' values (fields.ts).
 *
 * A new kind of limit (say, per tenant): its meter beside the others (or a new folder under src/
 * if it keeps its own counts), a `KeyAllowance` for it in create-key-limits.ts and a member of
 * `KeyLimits`, a step in `checkLimits` at its place in the order with its `LimitRefusal`, its
 * member in fields.ts, and the catalog error its refusal answers with (src/shared/errors.ts),
 * mapped in src/http/key-limits.ts.
 */
export { checkLimits, type LimitRefusal, type LimitVerdict, type LimitsSeen } from './limit-check.ts';
export type { LimitFields } from './fields.ts';
export { KeyAllowance, type KeyLimits } from './key-allowance.ts';
export { createKeyLimits, type KeyLimitsDeps } from './create-key-limits.ts';
