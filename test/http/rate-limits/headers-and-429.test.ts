import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { createKeyWithLimit, rateLimitFieldsOf, whoamiStatuses } from '../../support/rate-limit-kit.ts';

const START = '2026-11-22T12:00:15Z';

/** docs/keys.md (Rate limits) on /api/v1: the RateLimit fields on every response of a limited key, and the 429. */
describe('rate limits on the public API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ now: START });
  });
  afterAll(async () => h.close());

  it('sends RateLimit-Policy and RateLimit on each accepted request, counting down what is left', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithLimit(admin, { requests: 3, window: '1m' });
    for (const left of [2, 1, 0]) {
      const response = await h.api(secret, '/api/v1/whoami');
      expect(response.statusCode).toBe(200);
      expect(rateLimitFieldsOf(response.headers)).toEqual({
        policy: { name: 'key', q: 3, w: 60 },
        current: { name: 'key', r: left, t: 45 },
      });
    }
  });

  it('refuses the request after the limit with 429 rate_limited, Retry-After and the fields, until the window ends', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithLimit(admin, { requests: 2, window: '1m' });
    expect(await whoamiStatuses(h, secret, 2)).toEqual([200, 200]);
    h.clock.advance(5_000);
    const refused = await h.api(secret, '/api/v1/whoami');
    expectProblem(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('40');
    expect(rateLimitFieldsOf(refused.headers)).toEqual({
      policy: { name: 'key', q: 2, w: 60 },
      current: { name: 'key', r: 0, t: 40 },
    });
    // Refused on every route, not only whoami, and refusals do not use up the next window. The wait
    // is in the header fields alone: every refusal's body is the same bytes.
    h.clock.advance(7_000);
    const later = await h.api(secret, '/api/v1/flights');
    expectProblem(later, 429, 'rate_limited');
    expect(later.headers['retry-after']).toBe('33');
    expect(later.body).toBe(refused.body);
    h.clock.set('2026-11-22T12:01:00Z');
    const next = await h.api(secret, '/api/v1/whoami');
    expect(next.statusCode).toBe(200);
    expect(rateLimitFieldsOf(next.headers)?.current).toEqual({ name: 'key', r: 1, t: 60 });
  });

  it('counts per second, per hour and per day windows on UTC boundaries', async () => {
    const admin = await h.signedIn();
    for (const [window, seconds, at, t] of [
      ['1s', 1, '2026-11-22T12:00:15.250Z', 1],
      ['1h', 3600, '2026-11-22T12:59:00Z', 60],
      ['1d', 86_400, '2026-11-22T23:00:00Z', 3600],
    ] as const) {
      h.clock.set(at);
      const { secret } = await createKeyWithLimit(admin, { requests: 1, window });
      const accepted = await h.api(secret, '/api/v1/whoami');
      expect(rateLimitFieldsOf(accepted.headers)).toEqual({
        policy: { name: 'key', q: 1, w: seconds },
        current: { name: 'key', r: 0, t },
      });
      const refused = await h.api(secret, '/api/v1/whoami');
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.headers['retry-after']).toBe(String(t));
    }
  });

  it('sends neither field for a key without a limit, nor for a refused key', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithLimit(admin, null);
    expect(api_key.rate_limit).toBeNull();
    const response = await h.api(secret, '/api/v1/whoami');
    expect(response.statusCode).toBe(200);
    expect(rateLimitFieldsOf(response.headers)).toBeNull();
    const limited = await createKeyWithLimit(admin, { requests: 5, window: '1m' });
    await admin.request('PATCH', `/backoffice/api/api-keys/${limited.api_key.id}`, { enabled: false });
    const disabled = await h.api(limited.secret, '/api/v1/whoami');
    expectProblem(disabled, 401, 'api_key_disabled');
    expect(rateLimitFieldsOf(disabled.headers)).toBeNull();
  });
});
