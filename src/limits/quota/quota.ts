import type { Period } from '../rate/allowance.ts';

/** How long a quota's count runs (docs/keys.md (Quotas)): a UTC calendar day or month, or the key's whole life. */
export const QUOTA_PERIODS = ['day', 'month', 'total'] as const;
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

/** At most `requests` accepted requests per `period`. */
export type Quota = { requests: number; period: QuotaPeriod };

/** What the meter needs of a key's quota: the quota, as an allowance over `counter`'s count. */
export type KeyQuota = { requests: number; window: QuotaPeriod; counter: string };

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

/**
 * The largest slice of a quota one instance may lease: a crash strands at most what it held (a
 * slice and a half), so slices of 1/200 keep that under 1% (docs/keys.md (Quotas)). Small quotas
 * lease one request at a time, which is a database statement per request below 400 (slices of one).
 */
export function largestQuotaSlice(requests: number): number {
  return Math.max(1, Math.floor(requests / 200));
}

/** `api_key.quota_low` is announced when this share of the quota is used. */
export const QUOTA_LOW_SHARE = 0.8;

/** The request, counted from 1, whose acceptance makes the quota "low". */
export function lowMarkOf(requests: number): number {
  return Math.ceil(requests * QUOTA_LOW_SHARE);
}
