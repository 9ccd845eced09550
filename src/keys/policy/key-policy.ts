/**
 * A tenant's key policy and the one rule that judges a key against it (docs/keys.md (Key policy)).
 * Pure and without imports: the key service refuses a create, roll or change with it, and the back
 * office (through src/contracts.ts) marks existing keys outside the policy with the same words.
 */
export type KeyPolicy = {
  /** `expires_at` at most this many days after the day the key is made; an expiry is then required. */
  max_lifetime_days: number | null;
  require_expiry: boolean;
  /** The sweep disables a key not used for this many days (since its last use, creation or enable). */
  disable_unused_after_days: number | null;
  require_allowed_ips: boolean;
};

export const DEFAULT_KEY_POLICY: KeyPolicy = {
  max_lifetime_days: null,
  require_expiry: false,
  disable_unused_after_days: null,
  require_allowed_ips: false,
};

/** The rules a key can break; `disable_unused_after_days` is the sweep's, never a refusal. */
export const KEY_POLICY_RULES = ['max_lifetime_days', 'require_expiry', 'require_allowed_ips'] as const;
export type KeyPolicyRule = (typeof KEY_POLICY_RULES)[number];

/** One broken rule: the field it is about, the rule, and a sentence for people. */
export type PolicyViolation = { path: 'expires_at' | 'allowed_ips'; rule: KeyPolicyRule; message: string };

/** What of a key the policy looks at. `allowedIps` undefined or null: the key may be used from anywhere. */
export type PolicySubject = { expiresAt: string | null | undefined; allowedIps?: readonly string[] | null };

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDate(instant: Date | string): string {
  return (typeof instant === 'string' ? instant : instant.toISOString()).slice(0, 10);
}

/** The calendar date `days` after `date` (both `YYYY-MM-DD`, UTC). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The latest expiry the policy allows for a key made on `today`, or null when it sets no maximum. */
export function latestExpiryAllowed(policy: KeyPolicy, today: string): string | null {
  return policy.max_lifetime_days === null ? null : addDays(today, policy.max_lifetime_days);
}

/**
 * The rules a key with this expiry and allowlist breaks if made on `today` (`YYYY-MM-DD`, UTC):
 * an empty list when it complies. For an existing key, `today` is the day it was created: the
 * page marks a key the policy would have refused then.
 */
export function policyViolations(policy: KeyPolicy, subject: PolicySubject, today: string): PolicyViolation[] {
  return [...expiryViolations(policy, subject.expiresAt ?? null, today), ...allowedIpsViolations(policy, subject)];
}

/** The expiry rules alone (what a roll's successor, which keeps its list, is judged by). */
export function expiryViolations(policy: KeyPolicy, expiresAt: string | null, today: string): PolicyViolation[] {
  const latest = latestExpiryAllowed(policy, today);
  if (latest !== null) {
    const days = policy.max_lifetime_days;
    if (expiresAt === null) {
      return [
        {
          path: 'expires_at',
          rule: 'max_lifetime_days',
          message: `The key policy sets a maximum lifetime of ${days} days: give an expiry date, at the latest ${latest}.`,
        },
      ];
    }
    if (expiresAt > latest) {
      return [
        {
          path: 'expires_at',
          rule: 'max_lifetime_days',
          message: `The key policy sets a maximum lifetime of ${days} days: the expiry date may be ${latest} at the latest.`,
        },
      ];
    }
  }
  if (policy.require_expiry && expiresAt === null) {
    return [
      { path: 'expires_at', rule: 'require_expiry', message: 'The key policy requires an expiry date on every key.' },
    ];
  }
  return [];
}

/** The allowlist rule alone (a change of `allowed_ips` is judged by it). */
export function allowedIpsViolations(policy: KeyPolicy, subject: Pick<PolicySubject, 'allowedIps'>): PolicyViolation[] {
  if (!policy.require_allowed_ips || (subject.allowedIps && subject.allowedIps.length > 0)) return [];
  return [
    {
      path: 'allowed_ips',
      rule: 'require_allowed_ips',
      message: 'The key policy requires every key to list the addresses it may be used from (allowed_ips).',
    },
  ];
}
