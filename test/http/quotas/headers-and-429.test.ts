import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyLimitsSchema } from '../../../src/keys/key-schemas.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { createKeyWithQuota, limitMembersOf } from '../../support/quota-kit.ts';
import { whoamiStatuses } from '../../support/rate-limit-kit.ts';

const START = '2026-11-22T12:00:15Z';
const WHOAMI = '/api/v1/whoami';

/** docs/keys.md (Quotas) on /api/v1: the quota's RateLimit members, the 429 quota_exceeded, and whoami's `limits`. */
describe('quotas on the public API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ now: START });
  });
  afterAll(async () => h.close());

  it('counts a day quota down in the "quota" member, then refuses with 429 quota_exceeded until midnight UTC', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithQuota(admin, { requests: 3, period: 'day' });
    const toMidnight = 12 * 3600 - 15;
    for (const left of [2, 1, 0]) {
      const response = await h.api(secret, WHOAMI);
      expect(response.statusCode).toBe(200);
      expect(limitMembersOf(response.headers)).toEqual({
        policy: { quota: { q: 3, w: 86_400 } },
        current: { quota: { r: left, t: toMidnight } },
      });
    }
    const refused = await h.api(secret, '/api/v1/flights');
    const dayRefusal = expectProblem(refused, 429, 'quota_exceeded');
    expect(dayRefusal.detail).toMatch(/today/);
    expect(dayRefusal.detail).not.toMatch(/total|refill|month/);
    expect(refused.headers['retry-after']).toBe(String(toMidnight));
    expect(limitMembersOf(refused.headers)?.current).toEqual({ quota: { r: 0, t: toMidnight } });
    h.clock.set('2026-11-23T00:00:00Z');
    expect((await h.api(secret, WHOAMI)).statusCode).toBe(200);
  });

  it('names the month by its own length and a total quota without w, t or Retry-After', async () => {
    h.clock.set('2026-02-10T00:00:00Z');
    const admin = await h.signedIn();
    const month = await createKeyWithQuota(admin, { requests: 5, period: 'month' });
    const inFebruary = limitMembersOf((await h.api(month.secret, WHOAMI)).headers);
    expect(inFebruary).toEqual({
      policy: { quota: { q: 5, w: 28 * 86_400 } },
      current: { quota: { r: 4, t: 19 * 86_400 } },
    });
    const total = await createKeyWithQuota(admin, { requests: 1, period: 'total' });
    expect(limitMembersOf((await h.api(total.secret, WHOAMI)).headers)).toEqual({
      policy: { quota: { q: 1 } },
      current: { quota: { r: 0 } },
    });
    const refused = await h.api(total.secret, WHOAMI);
    expect(expectProblem(refused, 429, 'quota_exceeded').detail).toMatch(/'total' quota .*does not refill/);
    expect(refused.headers['retry-after']).toBeUndefined();
    for (let i = 0; i < 4; i++) await h.api(month.secret, WHOAMI);
    const monthRefusal = expectProblem(await h.api(month.secret, WHOAMI), 429, 'quota_exceeded');
    expect(monthRefusal.detail).toMatch(/this month/);
    expect(monthRefusal.detail).not.toMatch(/total|refill|today/);
    // Credits never refill: not the next day, not the next year.
    h.clock.set('2027-03-01T00:00:00Z');
    expectProblem(await h.api(total.secret, WHOAMI), 429, 'quota_exceeded');
  });

  it('sends both members when a key has a rate limit and a quota, and whoami reports what is left of each', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithQuota(
      admin,
      { requests: 10, period: 'day' },
      { rate_limit: { requests: 5, window: '1m' } },
    );
    const response = await h.api(secret, WHOAMI);
    expect(response.statusCode).toBe(200);
    expect(limitMembersOf(response.headers)).toEqual({
      policy: { key: { q: 5, w: 60 }, quota: { q: 10, w: 86_400 } },
      current: { key: { r: 4, t: 45 }, quota: { r: 9, t: 12 * 3600 - 15 } },
    });
    const limits = keyLimitsSchema.parse(response.json<{ limits: unknown }>().limits);
    expect(limits).toEqual({
      rate_limit: { requests: 5, window: '1m', remaining: 4, resets_at: '2026-11-22T12:01:00.000Z' },
      quota: { requests: 10, period: 'day', remaining: 9, resets_at: '2026-11-23T00:00:00.000Z' },
    });
  });

  it('reports no limits for a key without any, and sends neither field', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithQuota(admin, null);
    expect(api_key.quota).toBeNull();
    const response = await h.api(secret, WHOAMI);
    expect(limitMembersOf(response.headers)).toBeNull();
    expect(response.json<{ limits: unknown }>().limits).toEqual({ rate_limit: null, quota: null });
  });

  it('checks the rate limit first: a request it refuses consumes no quota', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithQuota(
      admin,
      { requests: 3, period: 'day' },
      { rate_limit: { requests: 1, window: '1m' } },
    );
    expect(await whoamiStatuses(h, secret, 4)).toEqual([200, 429, 429, 429]);
    h.clock.advance(60_000);
    const next = await h.api(secret, WHOAMI);
    expect(limitMembersOf(next.headers)?.current.quota).toEqual({ r: 1, t: 12 * 3600 - 75 });
  });

  it('checks the address before both: a request from outside the allowlist consumes neither', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithQuota(
      admin,
      { requests: 2, period: 'total' },
      { allowed_ips: ['203.0.113.7'], rate_limit: { requests: 2, window: '1h' } },
    );
    for (let i = 0; i < 3; i++)
      expectProblem(await h.apiWith(secret, WHOAMI, { client: '198.51.100.1' }), 403, 'api_key_ip_not_allowed');
    const inside = await h.apiWith(secret, WHOAMI, { client: '203.0.113.7' });
    expect(limitMembersOf(inside.headers)?.current).toEqual({ key: { r: 1, t: 3585 }, quota: { r: 1 } });
  });
});
