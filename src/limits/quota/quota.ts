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
