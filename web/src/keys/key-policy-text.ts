import { policyViolations, utcDate, type KeyPolicy, type PolicyViolation } from '@contracts';
import type { ApiKey } from './keys-api.ts';

/**
 * Why an existing key is outside the policy, in a few words each: the rules the server would have
 * refused it by on the day it was created. A new policy leaves existing keys working; the page
 * only marks them. Expired keys are past caring.
 */
export function outsidePolicyReasons(policy: KeyPolicy | undefined, key: ApiKey): string[] {
  if (!policy || key.status === 'expired') return [];
  const subject = { expiresAt: key.expires_at, allowedIps: allowedIpsOf(key) };
  return policyViolations(policy, subject, utcDate(key.created_at)).map((violation) =>
    reasonText(policy, violation, key),
  );
}

function reasonText(policy: KeyPolicy, violation: PolicyViolation, key: ApiKey): string {
  switch (violation.rule) {
    case 'max_lifetime_days':
      return key.expires_at === null
        ? `never expires (at most ${policy.max_lifetime_days} days allowed)`
        : `lives longer than ${policy.max_lifetime_days} days`;
    case 'require_expiry':
      return 'has no expiry date';
    case 'require_allowed_ips':
      return 'has no IP allowlist';
  }
}

/** `allowed_ips` where the server sends it (docs/keys.md (IP allowlists)); absent: any address. */
function allowedIpsOf(key: ApiKey): readonly string[] | null {
  const list = (key as { allowed_ips?: readonly string[] | null }).allowed_ips;
  return list ?? null;
}

/** One line per rule, for the policy section: what a System Administrator reads at a glance. */
export function policySummary(policy: KeyPolicy): Array<{ label: string; value: string }> {
  const days = (n: number | null, none: string) => (n === null ? none : `${n} ${n === 1 ? 'day' : 'days'}`);
  return [
    { label: 'Maximum lifetime', value: days(policy.max_lifetime_days, 'No maximum') },
    {
      label: 'Expiry date',
      value: policy.require_expiry || policy.max_lifetime_days !== null ? 'Required' : 'Optional',
    },
    { label: 'Disable keys unused for', value: days(policy.disable_unused_after_days, 'Never') },
    { label: 'IP allowlist', value: policy.require_allowed_ips ? 'Required' : 'Optional' },
  ];
}
