import type { AuditService } from '../../audit/audit-service.ts';
import type { Db } from '../../db/handle.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { requireOwnTenant, requirePermission, requireRecentSignIn, type Actor } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import { KeyPolicyViolationError, NotFoundError } from '../../shared/errors.ts';
import { allowedIpsViolations, policyViolations, utcDate, type KeyPolicy, type PolicySubject } from './key-policy.ts';
import type { KeyPolicyRepository } from './key-policy-repository.ts';
import { validPolicyChange } from './key-policy-schemas.ts';

export type KeyPolicyServiceOptions = {
  uow: UnitOfWork;
  policies: KeyPolicyRepository;
  audit: AuditService;
  clock: Clock;
};

/**
 * Reading and changing a tenant's key policy (docs/keys.md (Key policy)). Both need
 * `api_keys:manage`, checked here whatever the adapter; a user reaches their own tenant only.
 * A change applies to keys made from then on: existing keys are left as they are.
 */
export class KeyPolicyService {
  private readonly options: KeyPolicyServiceOptions;
  constructor(options: KeyPolicyServiceOptions) {
    this.options = options;
  }

  async get(actor: Actor, tenantId: string): Promise<KeyPolicy> {
    requirePermission(actor, 'api_keys:manage');
    requireOwnTenant(actor, tenantId);
    return this.options.policies.forTenant(tenantId);
  }

  /** Idempotent: a change to what is already stored records nothing. */
  async update(actor: Actor, tenantId: string, input: unknown): Promise<KeyPolicy> {
    requirePermission(actor, 'api_keys:manage');
    requireOwnTenant(actor, tenantId);
    requireRecentSignIn(actor, this.options.clock);
    const change = validPolicyChange(input);
    const { uow, policies, audit, clock } = this.options;
    return uow.inTransaction(async (tx) => {
      const tenant = await policies.lockTenant(tx, tenantId);
      if (!tenant) throw new NotFoundError('tenant');
      const before = await policies.forTenant(tenantId, tx);
      const after: KeyPolicy = {
        max_lifetime_days: change.max_lifetime_days === undefined ? before.max_lifetime_days : change.max_lifetime_days,
        require_expiry: change.require_expiry ?? before.require_expiry,
        disable_unused_after_days:
          change.disable_unused_after_days === undefined
            ? before.disable_unused_after_days
            : change.disable_unused_after_days,
        require_allowed_ips: change.require_allowed_ips ?? before.require_allowed_ips,
      };
      if (samePolicy(before, after)) return after;
      await policies.save(tx, tenantId, after, clock.now());
      await audit.record(
        tx,
        tenantId,
        actor,
        'tenant.key_policy_changed',
        { type: 'tenant', id: tenant.id, name: tenant.name },
        { before, after },
      );
      return after;
    });
  }

  /**
   * The guard the key service runs inside its transaction, after locking the tenant: throws
   * key_policy_violation naming each broken rule. `allowedIps` undefined: the input has none.
   */
  async enforce(tx: Db, tenantId: string, subject: PolicySubject, advice?: string): Promise<KeyPolicy> {
    const policy = await this.options.policies.forTenant(tenantId, tx);
    const violations = policyViolations(policy, subject, utcDate(this.options.clock.now()));
    if (violations.length > 0) throw new KeyPolicyViolationError(violations, advice);
    return policy;
  }

  /**
   * For a `PATCH` of a key's `allowed_ips`: judged by the allowlist rule alone, since the key's
   * expiry was judged when it was made and a new policy leaves existing keys be.
   */
  async enforceAllowedIps(tx: Db, tenantId: string, allowedIps: readonly string[] | null): Promise<void> {
    const policy = await this.options.policies.forTenant(tenantId, tx);
    const violations = allowedIpsViolations(policy, { allowedIps });
    if (violations.length > 0) throw new KeyPolicyViolationError(violations);
  }
}

// Another tenant's policy is "not found", like another tenant's key: existence is not revealed.
function samePolicy(a: KeyPolicy, b: KeyPolicy): boolean {
  return (
    a.max_lifetime_days === b.max_lifetime_days &&
    a.require_expiry === b.require_expiry &&
    a.disable_unused_after_days === b.disable_unused_after_days &&
    a.require_allowed_ips === b.require_allowed_ips
  );
}
