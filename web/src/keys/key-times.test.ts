import { describe, expect, it } from 'vitest';
import { expiresSoonText, isRetiring, retiresInText } from './key-times.ts';

const now = new Date('2026-11-22T10:50:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('"Retires in" of a rolled key', () => {
  it('reads 23 h just after a 24-hour roll, never more than is left', () => {
    expect(retiresInText(later(DAY - 1000), now)).toBe('Retires in 23 h');
    expect(retiresInText(later(DAY), now)).toBe('Retires in 24 h');
  });

  it('counts minutes in the last hour, and at least one', () => {
    expect(retiresInText(later(59 * MIN + 59_000), now)).toBe('Retires in 59 min');
    expect(retiresInText(later(10_000), now)).toBe('Retires in 1 min');
  });

  it('counts days and hours for a 7-day overlap', () => {
    expect(retiresInText(later(7 * DAY - MIN), now)).toBe('Retires in 6 days 23 h');
    expect(retiresInText(later(3 * DAY), now)).toBe('Retires in 3 days');
  });

  it('says Retired at and after the instant, and the key is no longer retiring', () => {
    expect(retiresInText(later(0), now)).toBe('Retired');
    expect(isRetiring({ retires_at: later(0) }, now)).toBe(false);
    expect(isRetiring({ retires_at: later(1) }, now)).toBe(true);
    expect(isRetiring({ retires_at: null }, now)).toBe(false);
  });
});

describe('"Expires in" warnings', () => {
  const key = (expires_at_time: string | null, status: 'enabled' | 'disabled' | 'expired' = 'enabled') => ({
    expires_at_time,
    status,
  });

  it('counts the UTC midnights to come: a key stopping at 00:00 on the 25th, seen on the 22nd, expires in 3 days', () => {
    expect(expiresSoonText(key('2026-11-25T00:00:00.000Z'), now)).toBe('Expires in 3 days');
  });

  it('warns up to 7 days ahead and not beyond', () => {
    expect(expiresSoonText(key(later(7 * DAY)), now)).toBe('Expires in 7 days');
    expect(expiresSoonText(key(later(7 * DAY + 1)), now)).toBeUndefined();
  });

  it('counts hours, then minutes, on the last day', () => {
    expect(expiresSoonText(key('2026-11-23T00:00:00.000Z'), now)).toBe('Expires in 13 h');
    expect(expiresSoonText(key(later(30 * MIN)), now)).toBe('Expires in 30 min');
  });

  it('says nothing for keys that never expire or already did', () => {
    expect(expiresSoonText(key(null), now)).toBeUndefined();
    expect(expiresSoonText(key(later(-1), 'expired'), now)).toBeUndefined();
    expect(expiresSoonText(key(later(DAY), 'expired'), now)).toBeUndefined();
  });
});
