import { describe, expect, it } from 'vitest';
import {
  addDays,
  allowedIpsViolations,
  DEFAULT_KEY_POLICY,
  expiryViolations,
  policyViolations,
  type KeyPolicy,
} from '../../../src/keys/policy/key-policy.ts';

const TODAY = '2026-11-22';
const policy = (rules: Partial<KeyPolicy>): KeyPolicy => ({ ...DEFAULT_KEY_POLICY, ...rules });
const rulesOf = (violations: Array<{ path: string; rule: string }>) => violations.map((v) => `${v.path}:${v.rule}`);

/** The pure decision behind key_policy_violation (src/keys/policy/key-policy.ts). */
describe('the key policy rule', () => {
  it('lets anything through under the default policy', () => {
    expect(policyViolations(DEFAULT_KEY_POLICY, { expiresAt: null }, TODAY)).toEqual([]);
    expect(policyViolations(DEFAULT_KEY_POLICY, { expiresAt: '2099-01-01', allowedIps: null }, TODAY)).toEqual([]);
  });

  it('refuses a key without an expiry under require_expiry, and accepts one with any expiry', () => {
    const rules = policy({ require_expiry: true });
    expect(rulesOf(policyViolations(rules, { expiresAt: null }, TODAY))).toEqual(['expires_at:require_expiry']);
    expect(policyViolations(rules, { expiresAt: '2099-01-01' }, TODAY)).toEqual([]);
  });

  it('refuses an expiry past today plus max_lifetime_days, and accepts that very day', () => {
    const rules = policy({ max_lifetime_days: 90 });
    expect(addDays(TODAY, 90)).toBe('2027-02-20');
    expect(policyViolations(rules, { expiresAt: '2027-02-20' }, TODAY)).toEqual([]);
    const late = policyViolations(rules, { expiresAt: '2027-02-21' }, TODAY);
    expect(rulesOf(late)).toEqual(['expires_at:max_lifetime_days']);
    expect(late[0]!.message).toContain('2027-02-20');
  });

  it('requires an expiry under a maximum lifetime, naming the lifetime rule rather than require_expiry', () => {
    const both = policy({ max_lifetime_days: 30, require_expiry: true });
    expect(rulesOf(expiryViolations(both, null, TODAY))).toEqual(['expires_at:max_lifetime_days']);
    expect(rulesOf(expiryViolations(policy({ max_lifetime_days: 30 }), null, TODAY))).toEqual([
      'expires_at:max_lifetime_days',
    ]);
  });

  it('counts the lifetime from the day given, across a month and a leap day', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    const rules = policy({ max_lifetime_days: 1 });
    expect(policyViolations(rules, { expiresAt: '2028-02-29' }, '2028-02-28')).toEqual([]);
    expect(policyViolations(rules, { expiresAt: '2028-03-01' }, '2028-02-28')).toHaveLength(1);
  });

  it('refuses a key without allowed_ips under require_allowed_ips: missing, null or empty', () => {
    const rules = policy({ require_allowed_ips: true });
    for (const allowedIps of [undefined, null, []]) {
      expect(rulesOf(allowedIpsViolations(rules, { allowedIps }))).toEqual(['allowed_ips:require_allowed_ips']);
    }
    expect(allowedIpsViolations(rules, { allowedIps: ['203.0.113.7'] })).toEqual([]);
    expect(allowedIpsViolations(DEFAULT_KEY_POLICY, { allowedIps: undefined })).toEqual([]);
  });

  it('lists every broken rule, expiry first', () => {
    const strict = policy({ max_lifetime_days: 7, require_expiry: true, require_allowed_ips: true });
    expect(rulesOf(policyViolations(strict, { expiresAt: '2027-01-01' }, TODAY))).toEqual([
      'expires_at:max_lifetime_days',
      'allowed_ips:require_allowed_ips',
    ]);
    expect(policyViolations(strict, { expiresAt: '2026-11-29', allowedIps: ['10.0.0.0/8'] }, TODAY)).toEqual([]);
  });

  it('marks an existing key by the day it was created: what the policy would have refused then', () => {
    const rules = policy({ max_lifetime_days: 30 });
    expect(policyViolations(rules, { expiresAt: '2026-12-15' }, '2026-11-20')).toEqual([]);
    expect(rulesOf(policyViolations(rules, { expiresAt: '2026-12-15' }, '2026-11-01'))).toEqual([
      'expires_at:max_lifetime_days',
    ]);
  });
});
