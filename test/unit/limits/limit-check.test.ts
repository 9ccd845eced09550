import { describe, expect, it } from 'vitest';
import { checkLimits, KeyAllowance, type KeyLimits, type LimitVerdict } from '../../../src/limits/index.ts';
import { largestQuotaSlice } from '../../../src/limits/quota/quota.ts';
import { quotaPeriodOf, type KeyQuota, type RateLimit } from '../../../src/shared/limit-terms.ts';
import { MemoryBudgetStore } from '../../../src/limits/budget/memory-budget-store.ts';
import { RateLimiter } from '../../../src/limits/budget/rate-limiter.ts';

/**
 * One verdict for all of a key's limits (src/limits/index.ts): the rate limit, then the quota; the
 * header fields' values and Retry-After in the verdict, refusals counted once each. In-process
 * budgets (the embedded mode's store) under a clock the test holds.
 */
const NOW = Date.UTC(2026, 10, 22, 12, 0, 15);

function limits(refusals: string[]): KeyLimits {
  const now = () => NOW;
  const clock = { now: () => new Date(NOW), nowMs: now };
  const rateLimiter = new RateLimiter({ store: new MemoryBudgetStore(), now });
  const quotaMeter = new RateLimiter({
    store: new MemoryBudgetStore(),
    now,
    periodOf: quotaPeriodOf,
    maxSliceOf: largestQuotaSlice,
    leaseAfterLast: false,
  });
  const count = (kind: string) => () => void refusals.push(kind);
  return {
    rateLimits: new KeyAllowance<RateLimit>(rateLimiter, count('rate_limited'), clock, () => {}),
    quotas: new KeyAllowance<KeyQuota>(quotaMeter, count('quota_exceeded'), clock, () => {}),
  };
}

const key = (rateLimit: RateLimit | undefined, quota: KeyQuota | undefined) => ({
  keyId: 'k1',
  rateLimit,
  quota,
  principal: { tenant: { id: 't1' } },
});

describe('checkLimits', () => {
  it('admits a key without limits with no fields and nothing to report', () => {
    expect(checkLimits(limits([]), key(undefined, undefined))).toEqual({
      admit: true,
      fields: undefined,
      seen: undefined,
    });
  });

  it('admits within both limits, with one member per limit, rate limit first', () => {
    const verdict = checkLimits(
      limits([]),
      key({ requests: 5, window: '1m' }, { requests: 3, window: 'day', counter: 'k1' }),
    );
    expect(verdict).toMatchObject({
      admit: true,
      fields: { policy: '"key";q=5;w=60, "quota";q=3;w=86400', current: '"key";r=4;t=45, "quota";r=2;t=43185' },
    });
  });

  it('refuses over the rate limit with its own member and Retry-After, consuming no quota', () => {
    const refusals: string[] = [];
    const l = limits(refusals);
    const k = key({ requests: 1, window: '1m' }, { requests: 3, window: 'day', counter: 'k1' });
    expect(checkLimits(l, k)).toMatchObject({ admit: true });
    expect(checkLimits(l, k)).toEqual({
      admit: false,
      refusal: 'rate_limited',
      period: undefined,
      fields: { policy: '"key";q=1;w=60', current: '"key";r=0;t=45' },
      retryAfterSeconds: 45,
    } satisfies LimitVerdict);
    expect(refusals).toEqual(['rate_limited']);
  });

  it("refuses over a quota naming its period; a 'total' quota has no Retry-After", () => {
    const refusals: string[] = [];
    const l = limits(refusals);
    const day = key(undefined, { requests: 1, window: 'day', counter: 'k1' });
    const total = key(undefined, { requests: 1, window: 'total', counter: 'k2' });
    expect(checkLimits(l, day)).toMatchObject({ admit: true });
    expect(checkLimits(l, { ...total, keyId: 'k2' })).toMatchObject({ admit: true });
    expect(checkLimits(l, day)).toMatchObject({
      admit: false,
      refusal: 'quota_exceeded',
      period: 'day',
      retryAfterSeconds: 43185,
    });
    expect(checkLimits(l, { ...total, keyId: 'k2' })).toMatchObject({
      admit: false,
      refusal: 'quota_exceeded',
      period: 'total',
      fields: { policy: '"quota";q=1', current: '"quota";r=0' },
      retryAfterSeconds: undefined,
    });
    expect(refusals).toEqual(['quota_exceeded', 'quota_exceeded']);
  });
});
