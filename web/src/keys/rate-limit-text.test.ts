import { describe, expect, it } from 'vitest';
import { draftOf, limitOf, rateLimitText, requestsProblem } from './rate-limit-text.ts';

describe('a rate limit in words and in the form', () => {
  it('names the limit, or says there is none', () => {
    expect(rateLimitText({ requests: 1200, window: '1m' })).toBe('1,200 requests per minute');
    expect(rateLimitText({ requests: 1, window: '1s' })).toBe('1 request per second');
    expect(rateLimitText(null)).toBe('No limit');
  });

  it('turns an empty number into no limit and a typed one into the API value', () => {
    expect(limitOf(draftOf(null))).toBeNull();
    expect(limitOf({ requests: '1,000', window: '1h' })).toEqual({ requests: 1000, window: '1h' });
    expect(limitOf(draftOf({ requests: 5, window: '1d' }))).toEqual({ requests: 5, window: '1d' });
  });

  it('says what is wrong with a number the server would refuse', () => {
    expect(requestsProblem({ requests: 0, window: '1m' })).toMatch(/whole number from 1 to 1,000,000,000/);
    expect(requestsProblem({ requests: 1.5, window: '1m' })).toBeDefined();
    expect(requestsProblem({ requests: 1_000_000_001, window: '1m' })).toBeDefined();
    expect(requestsProblem({ requests: '', window: '1m' })).toBeUndefined();
    expect(requestsProblem({ requests: 10, window: '1m' })).toBeUndefined();
  });
});
