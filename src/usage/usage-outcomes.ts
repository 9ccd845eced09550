/**
 * The outcomes counted per key and hour, in one list: its name in the API's JSON, its field in the
 * counter's tallies and its column in key_usage and tenant_usage (src/db/schema.ts). The usage
 * schema, the counter, the repository's statement and the series are derived from it; the back
 * office reads it through `@contracts`, so it stays a pure module without imports.
 * The order is the JSON's (ok first); what each outcome counts: usage-schemas.ts.
 */
export const USAGE_OUTCOMES = [
  { name: 'ok', field: 'ok', column: 'ok' },
  { name: 'rejected', field: 'rejected', column: 'rejected' },
  { name: 'rate_limited', field: 'rateLimited', column: 'rate_limited' },
  { name: 'ip_refused', field: 'ipRefused', column: 'ip_refused' },
  { name: 'quota_exceeded', field: 'quotaExceeded', column: 'quota_exceeded' },
] as const;

export type UsageOutcomeSpec = (typeof USAGE_OUTCOMES)[number];
/** An outcome as the API names it: `rate_limited`. */
export type UsageOutcome = UsageOutcomeSpec['name'];
/** An outcome as a tally names it: `rateLimited`. */
export type UsageOutcomeField = UsageOutcomeSpec['field'];
/** One count per outcome, keyed as the tallies are. */
export type OutcomeCounts = Record<UsageOutcomeField, number>;

/** One entry per outcome, keyed by its API name, in the list's order. */
export function byOutcome<T>(value: (outcome: UsageOutcomeSpec) => T): Record<UsageOutcome, T> {
  return Object.fromEntries(USAGE_OUTCOMES.map((outcome) => [outcome.name, value(outcome)])) as Record<UsageOutcome, T>;
}

/** One entry per outcome, keyed by its tally field, in the list's order. */
export function byField<T>(value: (outcome: UsageOutcomeSpec) => T): Record<UsageOutcomeField, T> {
  return Object.fromEntries(USAGE_OUTCOMES.map((outcome) => [outcome.field, value(outcome)])) as Record<
    UsageOutcomeField,
    T
  >;
}
