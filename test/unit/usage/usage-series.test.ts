import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, hourOf, seriesOf, spanOf } from '../../../src/usage/usage-series.ts';

const ms = (iso: string) => new Date(iso).getTime();
const starts = (window: '24h' | '7d' | '30d', now: string) =>
  seriesOf(spanOf(window, ms(now)), []).series.map((b) => b.start);

describe('usage buckets', () => {
  it('puts 23:59:59.999 and 00:00:00.000 UTC in different hours', () => {
    expect(new Date(hourOf(ms('2026-11-22T23:59:59.999Z'))).toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(new Date(hourOf(ms('2026-11-23T00:00:00.000Z'))).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('gives 24 hourly buckets for 24h, oldest first, ending with the current hour', () => {
    const series = starts('24h', '2026-11-22T12:34:56.789Z');
    expect(series).toHaveLength(24);
    expect(series[0]).toBe('2026-11-21T13:00:00.000Z');
    expect(series[23]).toBe('2026-11-22T12:00:00.000Z');
  });

  it('gives 7 and 30 daily buckets ending today, on UTC midnights', () => {
    const week = starts('7d', '2026-11-22T23:59:59.999Z');
    expect(week).toEqual(['16', '17', '18', '19', '20', '21', '22'].map((d) => `2026-11-${d}T00:00:00.000Z`));
    const month = starts('30d', '2026-11-23T00:00:00.000Z');
    expect(month).toHaveLength(30);
    expect([month[0], month[29]]).toEqual(['2026-10-25T00:00:00.000Z', '2026-11-23T00:00:00.000Z']);
  });

  it('adds hours into their day, keeps empty buckets at zero and ignores hours outside the window', () => {
    const span = spanOf('7d', ms('2026-11-22T08:00:00Z'));
    const { series, total } = seriesOf(span, [
      { hourMs: ms('2026-11-22T00:00:00Z'), ok: 2, rejected: 1, rateLimited: 0, ipRefused: 0, quotaExceeded: 0 },
      { hourMs: ms('2026-11-22T07:00:00Z'), ok: 3, rejected: 0, rateLimited: 0, ipRefused: 0, quotaExceeded: 0 },
      { hourMs: ms('2026-11-21T23:00:00Z'), ok: 5, rejected: 4, rateLimited: 0, ipRefused: 0, quotaExceeded: 0 },
      { hourMs: ms('2026-11-15T23:00:00Z'), ok: 100, rejected: 100, rateLimited: 0, ipRefused: 0, quotaExceeded: 0 },
      { hourMs: ms('2026-11-23T00:00:00Z'), ok: 100, rejected: 100, rateLimited: 0, ipRefused: 0, quotaExceeded: 0 },
    ]);
    expect(series.map((b) => [b.ok, b.rejected])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [5, 4],
      [5, 1],
    ]);
    expect(total).toEqual({ ok: 10, rejected: 5, rate_limited: 0, ip_refused: 0, quota_exceeded: 0 });
  });

  it('counts every hour of the window exactly once, whatever the time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: ms('2000-01-01T00:00:00Z'), max: ms('2100-01-01T00:00:00Z') }),
        fc.constantFrom('24h' as const, '7d' as const, '30d' as const),
        (now, window) => {
          const span = spanOf(window, now);
          const hours = Array.from({ length: (span.endMs - span.startMs) / HOUR_MS }, (_, i) => ({
            hourMs: span.startMs + i * HOUR_MS,
            ok: 1,
            rejected: 0,
            rateLimited: 0,
            ipRefused: 0,
            quotaExceeded: 0,
          }));
          const { series, total } = seriesOf(span, hours);
          expect(total.ok).toBe(span.count * (span.bucketMs / HOUR_MS));
          expect(series.every((b) => b.ok === span.bucketMs / HOUR_MS)).toBe(true);
          expect(now).toBeGreaterThanOrEqual(span.endMs - span.bucketMs);
          expect(now).toBeLessThan(span.endMs);
        },
      ),
    );
  });
});
