import { describe, expect, it } from 'vitest';
import { KeyPolicyViolationError, NotFoundError, PermissionDeniedError } from '../../../src/shared/errors.ts';
import { actorIn, tenantWithUser } from '../../support/actors.ts';
import { useHarness } from '../../support/use.ts';

/** KeyPolicyService guards itself, whatever adapter calls it (STYLE.md, habit 13). */
describe('the key policy service', () => {
  const h = useHarness();

  it('refuses a user without api_keys:manage, and treats another tenant as not found', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const administrator = await actorIn(h, tenant.id, ['administrator']);
    await expect(h.services.keys.policies.get(administrator, tenant.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(
      h.services.keys.policies.update(administrator, tenant.id, { require_expiry: true }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    const other = await tenantWithUser(h);
    await expect(h.services.keys.policies.get(actor, other.tenant.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      h.services.keys.policies.update(actor, other.tenant.id, { require_expiry: true }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.services.keys.policies.get(other.actor, other.tenant.id)).require_expiry).toBe(false);
  });

  it('judges a change of allowed_ips by the allowlist rule alone', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const judge = (allowedIps: string[] | null) =>
      h.services.uow.inTransaction((tx) => h.services.keys.policies.enforceAllowedIps(tx, tenant.id, allowedIps));
    await expect(judge(null)).resolves.toBeUndefined();
    await h.services.keys.policies.update(actor, tenant.id, { require_allowed_ips: true, require_expiry: true });
    await expect(judge(null)).rejects.toBeInstanceOf(KeyPolicyViolationError);
    await expect(judge([])).rejects.toMatchObject({ rules: ['require_allowed_ips'] });
    // A key without expiry is not judged by require_expiry here: only its list changes.
    await expect(judge(['203.0.113.0/24'])).resolves.toBeUndefined();
  });
});
