import { eq } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { keyPolicies, tenants } from '../../db/schema.ts';
import { DEFAULT_KEY_POLICY, type KeyPolicy } from './key-policy.ts';

/** Where a tenant's key policy is stored: one row per tenant that ever set one. */
export class KeyPolicyRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Locks the tenant row, which creates and rolls lock too: a key is judged by the policy either
   * before or after a change, never halfway. Returns what the audit trail names the tenant by.
   */
  async lockTenant(tx: Db, tenantId: string): Promise<{ id: string; name: string } | undefined> {
    const [row] = await tx
      .select({ id: tenants.id, name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .for('update');
    return row;
  }

  /** The tenant's policy, or the defaults when it never set one. */
  async forTenant(tenantId: string, tx: Db = this.db): Promise<KeyPolicy> {
    const [row] = await tx.select().from(keyPolicies).where(eq(keyPolicies.tenantId, tenantId));
    if (!row) return { ...DEFAULT_KEY_POLICY };
    return {
      max_lifetime_days: row.maxLifetimeDays,
      require_expiry: row.requireExpiry,
      disable_unused_after_days: row.disableUnusedAfterDays,
      require_allowed_ips: row.requireAllowedIps,
    };
  }

  async save(tx: Db, tenantId: string, policy: KeyPolicy, now: Date): Promise<void> {
    const values = {
      maxLifetimeDays: policy.max_lifetime_days,
      requireExpiry: policy.require_expiry,
      disableUnusedAfterDays: policy.disable_unused_after_days,
      requireAllowedIps: policy.require_allowed_ips,
      updatedAt: now,
    };
    await tx
      .insert(keyPolicies)
      .values({ tenantId, ...values })
      .onConflictDoUpdate({ target: keyPolicies.tenantId, set: values });
  }
}
