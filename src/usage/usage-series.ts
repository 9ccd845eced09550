import { byOutcome, USAGE_OUTCOMES, type OutcomeCounts, type UsageOutcome } from './usage-outcomes.ts';
import type { UsageBucket, UsageWindow } from './usage-schemas.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The UTC hour an instant falls in (epoch milliseconds): the bucket a request is counted in. */
export function hourOf(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

export type WindowSpan = { bucket: 'hour' | 'day'; bucketMs: number; startMs: number; endMs: number; count: number };

/**
 * The buckets of a window at `nowMs`: 24 hours ending with the current hour, or 7 / 30 days
 * ending with today, on UTC boundaries (UTC has no DST, so a day is always 24 hours).
 * `endMs` is exclusive: the end of the current hour or day.
 */
export function spanOf(window: UsageWindow, nowMs: number): WindowSpan {
  const [bucket, bucketMs, count] =
    window === '24h' ? (['hour', HOUR_MS, 24] as const) : (['day', DAY_MS, window === '7d' ? 7 : 30] as const);
  const endMs = Math.floor(nowMs / bucketMs) * bucketMs + bucketMs;
  return { bucket, bucketMs, startMs: endMs - count * bucketMs, endMs, count };
}

export type HourCounts = { hourMs: number } & OutcomeCounts;
type Totals = Record<UsageOutcome, number>;

/** Adds hourly rows into the window's buckets, oldest first, empty buckets included; rows outside are ignored. */
export function seriesOf(span: WindowSpan, rows: Iterable<HourCounts>): { series: UsageBucket[]; total: Totals } {
  const series: UsageBucket[] = Array.from({ length: span.count }, (_, i) => ({
    start: new Date(span.startMs + i * span.bucketMs).toISOString(),
    ...byOutcome(() => 0),
  }));
  const total: Totals = byOutcome(() => 0);
  for (const row of rows) {
    if (row.hourMs < span.startMs || row.hourMs >= span.endMs) continue;
    const bucket = series[Math.floor((row.hourMs - span.startMs) / span.bucketMs)]!;
    for (const { name, field } of USAGE_OUTCOMES) {
      bucket[name] += row[field];
      total[name] += row[field];
    }
  }
  return { series, total };
}
