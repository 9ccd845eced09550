/**
 * The words of a key's limits (docs/keys.md (Rate limits), (Quotas)): what a key carries, as the
 * key core stores and shows it and as the limits enforce it. Both read them here, so the key core
 * needs nothing of the limits and the limits may build on the key core.
 */

/** The windows a key's rate limit may use: fixed, aligned to the UTC epoch. */
export const RATE_LIMIT_WINDOWS = ['1s', '1m', '1h', '1d'] as const;
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];

/** At most `requests` accepted requests per `window`. */
export type RateLimit = { requests: number; window: RateLimitWindow };

export const WINDOW_SECONDS: Record<RateLimitWindow, number> = { '1s': 1, '1m': 60, '1h': 3_600, '1d': 86_400 };

/** How long a quota's count runs: a UTC calendar day or month, or the key's whole life. */
export const QUOTA_PERIODS = ['day', 'month', 'total'] as const;
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

/** At most `requests` accepted requests per `period`. */
export type Quota = { requests: number; period: QuotaPeriod };

/** What the meter needs of a key's quota: the quota, as an allowance over `counter`'s count. */
export type KeyQuota = { requests: number; window: QuotaPeriod; counter: string };

/** A window or period: epoch milliseconds, `end` excluded. */
export type Period = { start: number; end: number };

const DAY_MS = 86_400_000;

/** The period holding `nowMs`; a `total` period starts at the epoch and never ends. */
export function quotaPeriodOf(period: string, nowMs: number): Period {
  if (period === 'total') return { start: 0, end: Infinity };
  if (period === 'day') {
    const start = Math.floor(nowMs / DAY_MS) * DAY_MS;
    return { start, end: start + DAY_MS };
  }
  const now = new Date(nowMs);
  return {
    start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
    end: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
  };
}

/** How a count of `counter` in the period holding `nowMs` is named where counts are read together. */
export function usedKeyOf(counter: string, period: QuotaPeriod, nowMs: number): string {
  return `${counter}|${quotaPeriodOf(period, nowMs).start}`;
}
