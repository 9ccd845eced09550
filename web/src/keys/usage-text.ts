import type { Usage, UsageCounts, UsagePoint, UsageWindow } from './usage-api.ts';

// Usage as words and numbers: what the charts show, for reading, for screen readers and for tests.
export const WINDOW_LABELS: Record<UsageWindow, string> = { '24h': '24 hours', '7d': '7 days', '30d': '30 days' };
export const WINDOW_SHORT: Record<UsageWindow, string> = { '24h': '24 h', '7d': '7 d', '30d': '30 d' };

const count = new Intl.NumberFormat('en-GB');
export const formatCount = (n: number) => count.format(n);

const hourFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const weekdayFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

/** The axis label of a bucket: "14:00" for hours, "22 Nov" for days (UTC, as the buckets are). */
export function bucketLabel(start: string, bucket: Usage['bucket']): string {
  return bucket === 'hour' ? hourFormat.format(new Date(start)) : dayFormat.format(new Date(start));
}

/** The full name of a bucket, for the table read by screen readers: "Sun 22 Nov, 14:00–15:00 UTC". */
export function bucketName(start: string, bucket: Usage['bucket']): string {
  const at = new Date(start);
  if (bucket === 'day') return `${weekdayFormat.format(at)} (UTC)`;
  const end = new Date(at.getTime() + 60 * 60 * 1000);
  return `${weekdayFormat.format(at)}, ${hourFormat.format(at)}–${hourFormat.format(end)} UTC`;
}

/** Every request counted: accepted, rejected and (where counted, not for top keys) rate limited and refused for the address. */
export function requestsOf(
  counts: Pick<UsageCounts, 'ok' | 'rejected'> & Partial<Omit<UsageCounts, 'ok' | 'rejected'>>,
): number {
  return (
    counts.ok + counts.rejected + (counts.rate_limited ?? 0) + (counts.ip_refused ?? 0) + (counts.quota_exceeded ?? 0)
  );
}

/**
 * "1,234 requests in the last 7 days: 1,200 accepted, 34 rejected." (", 5 rate limited",
 * ", 3 over quota" and ", 2 refused for their address" when any were).
 */
export function usageSummary(usage: Pick<Usage, 'window' | 'total'>): string {
  const { ok, rejected, rate_limited, quota_exceeded, ip_refused } = usage.total;
  const total = requestsOf(usage.total);
  const requests = `${formatCount(total)} ${total === 1 ? 'request' : 'requests'}`;
  const limited = rate_limited > 0 ? `, ${formatCount(rate_limited)} rate limited` : '';
  const overQuota = quota_exceeded > 0 ? `, ${formatCount(quota_exceeded)} over quota` : '';
  const refused = ip_refused > 0 ? `, ${formatCount(ip_refused)} refused for their address` : '';
  return `${requests} in the last ${WINDOW_LABELS[usage.window]}: ${formatCount(ok)} accepted, ${formatCount(rejected)} rejected${limited}${overQuota}${refused}.`;
}

/** The busiest bucket, for the summary a screen reader hears before the table. */
export function peakOf(series: readonly UsagePoint[]): UsagePoint | undefined {
  let peak: UsagePoint | undefined;
  for (const point of series) if (!peak || requestsOf(point) > requestsOf(peak)) peak = point;
  return peak && requestsOf(peak) > 0 ? peak : undefined;
}

type ChartRow = {
  label: string;
  Accepted: number;
  Rejected: number;
  'Rate limited': number;
  'Quota exceeded': number;
  'Address refused': number;
};

/** Chart rows: the axis label plus the five series, named as the legend shows them. */
export function chartRows(usage: Usage): ChartRow[] {
  return usage.series.map((point) => ({
    label: bucketLabel(point.start, usage.bucket),
    Accepted: point.ok,
    Rejected: point.rejected,
    'Rate limited': point.rate_limited,
    'Quota exceeded': point.quota_exceeded,
    'Address refused': point.ip_refused,
  }));
}
