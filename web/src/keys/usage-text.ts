import type { Usage, UsageCounts, UsageOutcome, UsagePoint, UsageWindow } from './usage-api.ts';

// Usage as words and numbers: what the charts show, for reading, for screen readers and for tests.
export const WINDOW_LABELS: Record<UsageWindow, string> = { '24h': '24 hours', '7d': '7 days', '30d': '30 days' };
export const WINDOW_SHORT: Record<UsageWindow, string> = { '24h': '24 h', '7d': '7 d', '30d': '30 d' };

type OutcomeText = {
  /** The legend's, the table's and the totals' name; also the chart row's key for it. */
  label: string;
  color: string;
  /** In the summary sentence: "5 rate limited". */
  counted: string;
  /** Said even when zero (accepted and rejected); the refusals only when there were any. */
  always?: boolean;
};

/** How each outcome shows, in the order the chart, the table, the totals and the summary show them. */
const OUTCOME_TEXTS: Record<UsageOutcome, OutcomeText> = {
  ok: { label: 'Accepted', color: 'teal.7', counted: 'accepted', always: true },
  rejected: { label: 'Rejected', color: 'red.7', counted: 'rejected', always: true },
  rate_limited: { label: 'Rate limited', color: 'orange.5', counted: 'rate limited' },
  quota_exceeded: { label: 'Quota exceeded', color: 'yellow.6', counted: 'over quota' },
  ip_refused: { label: 'Address refused', color: 'grape.6', counted: 'refused for their address' },
};

/** Every outcome with its texts, in display order; `testId` names it in test ids (`rate-limited`). */
export const SHOWN_OUTCOMES = (Object.keys(OUTCOME_TEXTS) as UsageOutcome[]).map((outcome) => ({
  outcome,
  testId: outcome.replaceAll('_', '-'),
  ...OUTCOME_TEXTS[outcome],
}));

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

/** Every request counted: accepted, rejected and (where counted, not for top keys) the refusals. */
export function requestsOf(
  counts: Pick<UsageCounts, 'ok' | 'rejected'> & Partial<Omit<UsageCounts, 'ok' | 'rejected'>>,
): number {
  return SHOWN_OUTCOMES.reduce((sum, { outcome }) => sum + (counts[outcome] ?? 0), 0);
}

/**
 * "1,234 requests in the last 7 days: 1,200 accepted, 34 rejected." (", 5 rate limited",
 * ", 3 over quota" and ", 2 refused for their address" when any were).
 */
export function usageSummary(usage: Pick<Usage, 'window' | 'total'>): string {
  const total = requestsOf(usage.total);
  const requests = `${formatCount(total)} ${total === 1 ? 'request' : 'requests'}`;
  const counted = SHOWN_OUTCOMES.filter(({ outcome, always }) => always || usage.total[outcome] > 0)
    .map(({ outcome, counted }) => `${formatCount(usage.total[outcome])} ${counted}`)
    .join(', ');
  return `${requests} in the last ${WINDOW_LABELS[usage.window]}: ${counted}.`;
}

/** The busiest bucket, for the summary a screen reader hears before the table. */
export function peakOf(series: readonly UsagePoint[]): UsagePoint | undefined {
  let peak: UsagePoint | undefined;
  for (const point of series) if (!peak || requestsOf(point) > requestsOf(peak)) peak = point;
  return peak && requestsOf(peak) > 0 ? peak : undefined;
}

/** The axis label, and one count per outcome keyed by its label, as the legend shows it. */
type ChartRow = { label: string } & Record<string, string | number>;

/** Chart rows: the axis label plus the five series, named as the legend shows them. */
export function chartRows(usage: Usage): ChartRow[] {
  return usage.series.map((point) => ({
    label: bucketLabel(point.start, usage.bucket),
    ...Object.fromEntries(SHOWN_OUTCOMES.map(({ outcome, label }) => [label, point[outcome]])),
  }));
}
