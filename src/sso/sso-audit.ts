import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { signInDetail, type ClientContext } from '../sessions/sign-in-audit.ts';
import type { SsoRefusal } from './sso-refusals.ts';
import type { SsoRepository } from './sso-repository.ts';

/**
 * A refused single sign-on in the tenant's trail (`user.sign_in_failed`, method `sso`): who the
 * provider said it was, if it got that far, the reason, and the issuer; never a token or a code.
 */
export async function auditRefusal(
  deps: { uow: UnitOfWork; audit: AuditService; rows: SsoRepository },
  what: { tenantId: string; issuer: string; refusal: SsoRefusal; email: string | undefined; client: ClientContext },
): Promise<void> {
  const { tenantId, issuer, refusal, email, client } = what;
  const user = email ? await deps.rows.userInTenant(tenantId, email) : undefined;
  await deps.uow.inTransaction((tx) =>
    deps.audit.record(
      tx,
      tenantId,
      { type: 'user', id: null, email: email ?? '' },
      'user.sign_in_failed',
      { type: 'user', id: user?.id ?? null, name: email ?? null },
      { ...signInDetail('sso', client), reason: refusal.reason, issuer, ...refusal.detail },
    ),
  );
}
