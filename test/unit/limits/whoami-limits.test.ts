import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyLimitsSchema } from '../../../src/keys/key-schemas.ts';
import { QUOTA_PERIODS, RATE_LIMIT_WINDOWS } from '../../../src/shared/limit-terms.ts';
import type { RateDecision } from '../../../src/limits/budget/rate-limiter.ts';
import { limitsJson, limitsView } from '../../../src/limits/whoami-limits.ts';

const decision = (remaining: number, resetsAtMs: number): RateDecision => ({
  ok: true,
  unavailable: false,
  limit: remaining + 1,
  windowSeconds: 60,
  remaining,
  resetSeconds: 1,
  startsAtMs: 0,
  resetsAtMs,
  firstRefusalInWindow: false,
});

const instant = fc.integer({ min: 0, max: 4_102_444_800_000 });
const requests = fc.integer({ min: 1, max: 1_000_000_000 });
const seen = fc.record({
  rate: fc.option(
    fc.record({ requests, window: fc.constantFrom(...RATE_LIMIT_WINDOWS), remaining: requests, resetsAtMs: instant }),
  ),
  quota: fc.option(
    fc.record({
      requests,
      window: fc.constantFrom(...QUOTA_PERIODS),
      remaining: requests,
      resetsAtMs: fc.oneof(instant, fc.constant(Infinity)),
    }),
  ),
});

/** whoami's `limits`: hand-built JSON on the REST path, an object for the MCP tool; one meaning. */
describe("whoami's limits", () => {
  it('are the same in the REST body and the MCP tool, and match the documented schema', () => {
    fc.assert(
      fc.property(seen, ({ rate, quota }) => {
        const limits = {
          rateLimit: rate ? { requests: rate.requests, window: rate.window } : undefined,
          rate: rate ? decision(rate.remaining, rate.resetsAtMs) : undefined,
          quota: quota ? { requests: quota.requests, window: quota.window, counter: 'c' } : undefined,
          quotaDecision: quota ? decision(quota.remaining, quota.resetsAtMs) : undefined,
        };
        const view = limitsView(limits);
        expect(JSON.parse(limitsJson(limits))).toEqual(view);
        expect(keyLimitsSchema.parse(view)).toEqual(view);
        expect(view.rate_limit === null).toBe(rate === null);
        expect(view.quota?.resets_at === null).toBe(quota?.resetsAtMs === Infinity);
      }),
    );
  });

  it('are both null for a key without limits', () => {
    expect(limitsView(undefined)).toEqual({ rate_limit: null, quota: null });
  });
});
