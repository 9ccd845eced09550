import { describe, expect, it } from 'vitest';
import { admit, type AdmissionDeps } from '../../../src/admission/admit.ts';
import type { Admission } from '../../../src/admission/outcome.ts';
import type { Accepted } from '../../../src/keys/check/decide.ts';
import { largestQuotaSlice } from '../../../src/limits/quota/quota.ts';
import { quotaPeriodOf, type KeyQuota, type RateLimit } from '../../../src/shared/limit-terms.ts';
import { MemoryBudgetStore } from '../../../src/limits/budget/memory-budget-store.ts';
import { RateLimiter } from '../../../src/limits/budget/rate-limiter.ts';
import type { Principal } from '../../../src/shared/principal.ts';

/**
 * One admission, one outcome list (src/admission/admit.ts): credential, state, address, rate,
 * quota; the header fields' values and Retry-After in the outcome, refusals counted and announced
 * once each. The credential step resolves through a resolver that admits the key it is given (the
 * key check has tests of its own); the limits run on in-process budgets (the embedded mode's store)
 * under a clock the test holds.
 */
const NOW = Date.UTC(2026, 10, 22, 12, 0, 15);
const SECRET = 'ak_test_secret';
const none = { xApiKey: undefined, authorization: undefined, queryKey: undefined, path: '/api/v1/whoami' };
const principal = { tenant: { id: 't1' } } as unknown as Principal;

function deps(accepted: Accepted, effects: string[]): AdmissionDeps {
  const now = () => NOW;
  const clock = { now: () => new Date(NOW), nowMs: now };
  const quotaMeter = new RateLimiter({
    store: new MemoryBudgetStore(),
    now,
    periodOf: quotaPeriodOf,
    maxSliceOf: largestQuotaSlice,
    leaseAfterLast: false,
  });
  const noted = (kind: string) => () => {
    effects.push(kind);
    return Promise.resolve(true);
  };
  return {
    credentials: {
      key: { resolve: (credential) => (credential.secret === SECRET ? accepted : { status: 'invalid' }) },
      oauth: { resolve: () => ({ status: 'invalid_token' }) },
    },
    limits: {
      rateLimits: new RateLimiter({ store: new MemoryBudgetStore(), now }),
      quotas: quotaMeter,
      usage: {
        rateLimited: () => void effects.push('rate_limited'),
        quotaExceeded: () => void effects.push('quota_exceeded'),
      },
      rateLimitNotices: { notice: noted('announced rate_limited') },
      quotaNotices: { notice: noted('announced quota_exhausted') },
      clock,
      backgroundError: (error) => {
        throw error;
      },
    },
  };
}

const key = (rateLimit: RateLimit | undefined, quota: KeyQuota | undefined, keyId = 'k1'): Accepted => ({
  ok: true,
  status: 'admitted',
  credential: 'key',
  keyId,
  principal,
  rateLimit,
  quota,
});

const admitKey = (d: AdmissionDeps) => admit(d, { ...none, xApiKey: SECRET }, '192.0.2.1') as Admission;

describe('admit', () => {
  it('refuses a request without a credential, or with two different ones, before any resolver runs', () => {
    const d = deps(key(undefined, undefined), []);
    expect(admit(d, none, '192.0.2.1')).toEqual({ status: 'missing_credential' });
    expect(admit(d, { ...none, xApiKey: SECRET, queryKey: 'other' }, '192.0.2.1')).toEqual({
      status: 'ambiguous_credential',
    });
    expect(admit(d, { ...none, xApiKey: 'wrong' }, '192.0.2.1')).toEqual({ status: 'invalid' });
  });

  it('takes a bearer value that is no ask_ key, alone in the header, as an access token (docs/oauth.md)', () => {
    const d = deps(key(undefined, undefined), []);
    expect(admit(d, { ...none, authorization: 'Bearer opaque-token-value' }, '192.0.2.1')).toEqual({
      status: 'invalid_token',
    });
    // In the query string it is an unknown key; beside a key, two credentials.
    expect(admit(d, { ...none, queryKey: 'opaque-token-value' }, '192.0.2.1')).toEqual({ status: 'invalid' });
    expect(admit(d, { ...none, xApiKey: SECRET, authorization: 'Bearer opaque-token-value' }, '192.0.2.1')).toEqual({
      status: 'ambiguous_credential',
    });
  });

  it('admits a key without limits as the key check accepted it: no fields, nothing to report', () => {
    const accepted = key(undefined, undefined);
    expect(admitKey(deps(accepted, []))).toBe(accepted);
  });

  it('admits within both limits, with one member per limit, rate limit first', () => {
    const outcome = admitKey(
      deps(key({ requests: 5, window: '1m' }, { requests: 3, window: 'day', counter: 'k1' }), []),
    );
    expect(outcome).toMatchObject({
      status: 'admitted',
      fields: { policy: '"key";q=5;w=60, "quota";q=3;w=86400', current: '"key";r=4;t=45, "quota";r=2;t=43185' },
    });
  });

  it('refuses over the rate limit with its own member and Retry-After, consuming no quota', () => {
    const effects: string[] = [];
    const accepted = key({ requests: 1, window: '1m' }, { requests: 3, window: 'day', counter: 'k1' });
    const d = deps(accepted, effects);
    expect(admitKey(d)).toMatchObject({ status: 'admitted' });
    expect(admitKey(d)).toEqual({
      status: 'rate_limited',
      key: accepted,
      fields: { policy: '"key";q=1;w=60', current: '"key";r=0;t=45' },
      retryAfterSeconds: 45,
    } satisfies Admission);
    expect(effects).toEqual(['rate_limited', 'announced rate_limited']);
  });

  it("refuses over a quota naming its period; a 'total' quota has no Retry-After", () => {
    const effects: string[] = [];
    const day = deps(key(undefined, { requests: 1, window: 'day', counter: 'k1' }), effects);
    expect(admitKey(day)).toMatchObject({ status: 'admitted' });
    expect(admitKey(day)).toMatchObject({ status: 'quota_exceeded', period: 'day', retryAfterSeconds: 43185 });
    const total = deps(key(undefined, { requests: 1, window: 'total', counter: 'k2' }, 'k2'), effects);
    expect(admitKey(total)).toMatchObject({ status: 'admitted' });
    const refused = admitKey(total);
    expect(refused).toMatchObject({
      status: 'quota_exceeded',
      period: 'total',
      fields: { policy: '"quota";q=1', current: '"quota";r=0' },
      retryAfterSeconds: undefined,
    });
    // The type narrows: a quota refusal always names its period.
    if (refused.status === 'quota_exceeded') expect(['day', 'month', 'total']).toContain(refused.period);
    expect(effects).toEqual([
      'quota_exceeded',
      'announced quota_exhausted',
      'quota_exceeded',
      'announced quota_exhausted',
    ]);
  });
});
