import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_POLICY } from '@contracts';
import { outsidePolicyReasons, policySummary } from './key-policy-text.ts';
import { keyFixture } from './key-fixture.ts';

const strict = { ...DEFAULT_KEY_POLICY, max_lifetime_days: 30, require_allowed_ips: true };

describe('keys outside the key policy', () => {
  it('marks nothing under the default policy or before the policy has loaded', () => {
    const key = keyFixture({ expires_at: null });
    expect(outsidePolicyReasons(DEFAULT_KEY_POLICY, key)).toEqual([]);
    expect(outsidePolicyReasons(undefined, key)).toEqual([]);
  });

  it('names each rule the key would have broken on the day it was created', () => {
    const key = keyFixture({ created_at: '2026-11-01T09:00:00.000Z', expires_at: '2027-01-01' });
    expect(outsidePolicyReasons(strict, key)).toEqual(['lives longer than 30 days', 'has no IP allowlist']);
    const never = keyFixture({ expires_at: null });
    expect(outsidePolicyReasons({ ...DEFAULT_KEY_POLICY, require_expiry: true }, never)).toEqual([
      'has no expiry date',
    ]);
  });

  it('leaves expired keys unmarked and a compliant key alone', () => {
    expect(outsidePolicyReasons(strict, keyFixture({ status: 'expired', expires_at: null }))).toEqual([]);
    const fine = keyFixture({ created_at: '2026-11-01T09:00:00.000Z', expires_at: '2026-11-20' });
    expect(outsidePolicyReasons({ ...strict, require_allowed_ips: false }, fine)).toEqual([]);
  });

  it('summarises the policy in words', () => {
    expect(policySummary({ ...strict, disable_unused_after_days: 1 }).map((row) => row.value)).toEqual([
      '30 days',
      'Required',
      '1 day',
      'Required',
    ]);
  });
});
