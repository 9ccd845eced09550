import { describe, expect, it } from 'vitest';
import { bucketLabel, bucketName, chartRows, peakOf, usageSummary } from './usage-text.ts';

describe('usage in words', () => {
  it('sums accepted and rejected requests for the window', () => {
    expect(
      usageSummary({
        window: '7d',
        total: { ok: 1200, rejected: 34, rate_limited: 0, ip_refused: 0, quota_exceeded: 0 },
      }),
    ).toBe('1,234 requests in the last 7 days: 1,200 accepted, 34 rejected.');
    expect(
      usageSummary({ window: '24h', total: { ok: 1, rejected: 0, rate_limited: 0, ip_refused: 0, quota_exceeded: 0 } }),
    ).toBe('1 request in the last 24 hours: 1 accepted, 0 rejected.');
  });

  it('names requests refused over the rate limit when there were any', () => {
    expect(
      usageSummary({
        window: '24h',
        total: { ok: 10, rejected: 0, rate_limited: 5, ip_refused: 0, quota_exceeded: 0 },
      }),
    ).toBe('15 requests in the last 24 hours: 10 accepted, 0 rejected, 5 rate limited.');
  });

  it('names requests refused for their address when there were any', () => {
    expect(
      usageSummary({
        window: '24h',
        total: { ok: 10, rejected: 1, rate_limited: 2, ip_refused: 3, quota_exceeded: 0 },
      }),
    ).toBe('16 requests in the last 24 hours: 10 accepted, 1 rejected, 2 rate limited, 3 refused for their address.');
  });

  it('names requests refused over the quota when there were any', () => {
    expect(
      usageSummary({
        window: '7d',
        total: { ok: 100, rejected: 0, rate_limited: 0, quota_exceeded: 7, ip_refused: 0 },
      }),
    ).toBe('107 requests in the last 7 days: 100 accepted, 0 rejected, 7 over quota.');
  });

  it('labels hours and days in UTC', () => {
    expect(bucketLabel('2026-11-22T23:00:00.000Z', 'hour')).toBe('23:00');
    expect(bucketLabel('2026-11-22T00:00:00.000Z', 'day')).toBe('22 Nov');
    expect(bucketName('2026-11-22T23:00:00.000Z', 'hour')).toBe('Sun 22 Nov, 23:00–00:00 UTC');
    expect(bucketName('2026-11-22T00:00:00.000Z', 'day')).toBe('Sun 22 Nov (UTC)');
  });

  it('finds the busiest bucket, and none when nothing was counted', () => {
    const a = {
      start: '2026-11-21T00:00:00.000Z',
      ok: 3,
      rejected: 4,
      rate_limited: 0,
      ip_refused: 0,
      quota_exceeded: 0,
    };
    const b = {
      start: '2026-11-22T00:00:00.000Z',
      ok: 6,
      rejected: 0,
      rate_limited: 0,
      ip_refused: 0,
      quota_exceeded: 0,
    };
    expect(peakOf([a, b])).toBe(a);
    expect(peakOf([{ ...a, ok: 0, rejected: 0 }])).toBeUndefined();
  });

  it('gives the chart one row per bucket, oldest first, as the server sent them', () => {
    const rows = chartRows({
      window: '24h',
      bucket: 'hour',
      series: [
        { start: '2026-11-22T09:00:00.000Z', ok: 2, rejected: 1, rate_limited: 3, quota_exceeded: 4, ip_refused: 2 },
        { start: '2026-11-22T10:00:00.000Z', ok: 0, rejected: 0, rate_limited: 0, quota_exceeded: 0, ip_refused: 0 },
      ],
      total: { ok: 2, rejected: 1, rate_limited: 3, quota_exceeded: 4, ip_refused: 2 },
    });
    expect(rows).toEqual([
      { label: '09:00', Accepted: 2, Rejected: 1, 'Rate limited': 3, 'Quota exceeded': 4, 'Address refused': 2 },
      { label: '10:00', Accepted: 0, Rejected: 0, 'Rate limited': 0, 'Quota exceeded': 0, 'Address refused': 0 },
    ]);
  });
});
