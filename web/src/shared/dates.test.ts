import { describe, expect, it } from 'vitest';
import {
  earliestExpiryDate,
  expiryInstant,
  formatDate,
  formatExpiry,
  formatInstant,
  formatLastUsed,
  utcDateOf,
} from './dates.ts';

describe('earliest selectable expiry', () => {
  it('is tomorrow in UTC during the UTC day', () => {
    expect(earliestExpiryDate(new Date('2026-11-22T12:00:00Z'))).toBe('2026-11-23');
  });

  it('follows the UTC date, not the viewer’s, just before and after midnight UTC', () => {
    expect(earliestExpiryDate(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-23');
    expect(earliestExpiryDate(new Date('2026-11-23T00:00:00.000Z'))).toBe('2026-11-24');
  });

  it('crosses month and year ends, and leap days', () => {
    expect(earliestExpiryDate(new Date('2026-12-31T08:00:00Z'))).toBe('2027-01-01');
    expect(earliestExpiryDate(new Date('2028-02-28T08:00:00Z'))).toBe('2028-02-29');
  });

  it('is the date the key then stops at 00:00 UTC', () => {
    const date = earliestExpiryDate(new Date('2026-11-22T12:00:00Z'));
    expect(expiryInstant(date).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(utcDateOf(expiryInstant(date))).toBe(date);
  });
});

describe('formatting', () => {
  it('states the exact expiry instant in UTC', () => {
    expect(formatExpiry('2026-12-01T00:00:00.000Z')).toEqual({
      date: '1 Dec 2026',
      stopsAt: 'Stops at 1 Dec 2026, 00:00 UTC',
    });
  });

  it('shows dates and instants in UTC whatever the local zone', () => {
    expect(formatDate('2026-11-22T23:30:00Z')).toBe('22 Nov 2026');
    expect(formatInstant('2026-11-22T23:30:00Z')).toBe('22 Nov 2026, 23:30 UTC');
  });

  it('says "Never" for a key not used yet', () => {
    expect(formatLastUsed(null, new Date())).toBe('Never');
  });

  it('reads last use relative to now', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(formatLastUsed('2026-11-22T11:59:30Z', now)).toBe('just now');
    expect(formatLastUsed('2026-11-22T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatLastUsed('2026-11-22T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatLastUsed('2026-11-21T10:00:00Z', now)).toBe('yesterday');
    expect(formatLastUsed('2026-11-01T12:00:00Z', now)).toBe('3 weeks ago');
    expect(formatLastUsed('2025-11-01T12:00:00Z', now)).toBe('last year');
  });

  it('does not show a small clock skew as a future time', () => {
    expect(formatLastUsed('2026-11-22T12:00:20Z', new Date('2026-11-22T12:00:00Z'))).toBe('just now');
  });
});
