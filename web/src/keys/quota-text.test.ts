import { describe, expect, it } from 'vitest';
import { quotaDraftOf, quotaOf, quotaPercent, quotaProblem, quotaText, quotaUsedText } from './quota-text.ts';

describe('a quota in words and in the form', () => {
  it('names the quota, or says there is none', () => {
    expect(quotaText({ requests: 10_000, period: 'month' })).toBe('10,000 requests a month');
    expect(quotaText({ requests: 1, period: 'day' })).toBe('1 request a day');
    expect(quotaText({ requests: 50_000, period: 'total' })).toBe('50,000 requests in total');
    expect(quotaText(null)).toBe('No quota');
  });

  it('says how much of the period is used', () => {
    const month = { requests: 10_000, period: 'month', used: 1234, resets_at: '2026-12-01T00:00:00.000Z' } as const;
    expect(quotaUsedText(month)).toBe('1,234 of 10,000 this month');
    expect(quotaUsedText({ ...month, period: 'day' })).toBe('1,234 of 10,000 today');
    expect(quotaUsedText({ ...month, period: 'total', resets_at: null })).toBe('1,234 of 10,000 in total');
    expect(quotaPercent(month)).toBeCloseTo(12.34);
    // Lowered below what was used: full, never past it.
    expect(quotaPercent({ ...month, requests: 1000 })).toBe(100);
  });

  it('turns an empty number into no quota and a typed one into the API value', () => {
    expect(quotaOf(quotaDraftOf(null))).toBeNull();
    expect(quotaOf({ requests: '10,000', period: 'day' })).toEqual({ requests: 10_000, period: 'day' });
    expect(quotaOf(quotaDraftOf({ requests: 5, period: 'total' }))).toEqual({ requests: 5, period: 'total' });
  });

  it('says what is wrong with a number the server would refuse', () => {
    expect(quotaProblem({ requests: 0, period: 'day' })).toBe(
      'A whole number from 1 to 1,000,000,000, or empty for no quota.',
    );
    expect(quotaProblem({ requests: 2.5, period: 'day' })).toBeDefined();
    expect(quotaProblem({ requests: '', period: 'day' })).toBeUndefined();
    expect(quotaProblem({ requests: 100, period: 'month' })).toBeUndefined();
  });
});
