import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { ChangeRecorder } from '../db/unit-of-work.ts';
import { SYSTEM_ACTOR } from '../shared/actor.ts';
import type { Role } from '../shared/roles.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import type { UserRepository, UserWithTenant } from '../users/user-repository.ts';
import { sameRoles } from '../users/user-rules.ts';
import type { SsoRepository, TenantWithSso } from './sso-repository.ts';
import { SsoRefusal } from './sso-refusals.ts';

/** A person as the provider vouches for them: the identity, a verified e-mail of an allowed domain. */
export type VouchedPerson = { issuer: string; subject: string; email: string; name: string };

export type SsoAccountsOptions = {
  rows: SsoRepository;
  users: UserRepository;
  tenants: TenantRepository;
  audit: AuditService;
};

/**
 * Who a provider's identity is here (docs/sso.md (Linking)), in one order: the user linked to this
 * issuer and `sub`; else the tenant's user with that e-mail, then linked; else a new user when the
 * tenant creates them. A `sub` is only ever looked up with its issuer, and an account already
 * linked to another identity is never taken over by an e-mail.
 */
export class SsoAccounts {
  private readonly options: SsoAccountsOptions;
  constructor(options: SsoAccountsOptions) {
    this.options = options;
  }

  async find(tx: Db, tenant: TenantWithSso, person: VouchedPerson, create: boolean, roles: Role[] | undefined) {
    const linkedId = await this.options.rows.userOfIdentity(person.issuer, person.subject, tx);
    if (linkedId !== undefined) {
      const linked = await this.options.users.findById(linkedId, tx);
      if (!linked) throw new SsoRefusal('sso_user_unknown');
      if (linked.tenantId !== tenant.tenant.id) throw new SsoRefusal('sso_user_other_organisation');
      return { user: linked, created: false };
    }
    const byEmail = await this.options.users.findByEmail(person.email, tx);
    if (byEmail) {
      if (byEmail.tenantId !== tenant.tenant.id) throw new SsoRefusal('sso_user_other_organisation');
      const identities = await this.options.rows.identitiesOf(byEmail.id, tx);
      // Linked to this very identity since the lookup above: a concurrent first sign-in won.
      if (identities.some((i) => i.issuer === person.issuer && i.subject === person.subject)) {
        return { user: byEmail, created: false };
      }
      if (identities.length > 0) {
        throw new SsoRefusal('sso_identity_conflict', {
          linked_issuers: [...new Set(identities.map((i) => i.issuer))],
        });
      }
      await this.options.rows.link(tx, person.issuer, person.subject, byEmail.id);
      return { user: byEmail, created: false };
    }
    if (!create || !tenant.config.createUsers) throw new SsoRefusal('sso_user_unknown');
    const row = await this.options.users.insert(tx, {
      tenantId: tenant.tenant.id,
      email: person.email,
      name: person.name,
      passwordHash: null,
      roles: roles && roles.length > 0 ? roles : tenant.config.defaultRoles,
    });
    await this.options.rows.link(tx, person.issuer, person.subject, row.id);
    const user: UserWithTenant = { ...row, tenant: tenant.tenant };
    await this.options.audit.record(tx, tenant.tenant.id, SYSTEM_ACTOR, 'user.created', target(user), {
      roles: user.roles,
      via: 'sso',
    });
    return { user, created: true };
  }

  /**
   * The provider's roles replace the user's when its claim is present (audited, published so the
   * user's keys narrow at once, the user's sessions ended, as any role change).
   */
  async applyRoles(tx: Db, changed: ChangeRecorder, user: UserWithTenant, roles: Role[] | undefined) {
    if (roles === undefined || sameRoles(roles, user.roles)) return user;
    if (user.roles.includes('system_administrator') && !roles.includes('system_administrator')) {
      // The tenant's lock serialises the count, so two last administrators cannot both step down.
      await this.options.tenants.lock(tx, user.tenantId);
      if ((await this.options.users.countWithRole(tx, user.tenantId, 'system_administrator')) <= 1) {
        // Nobody could manage the tenant any more: the person keeps their roles and still signs in.
        await this.options.audit.record(tx, user.tenantId, SYSTEM_ACTOR, 'user.roles_change_refused', target(user), {
          from: user.roles,
          to: roles,
          reason: 'last_system_administrator',
          via: 'sso',
        });
        return user;
      }
    }
    await this.options.users.update(tx, user.id, { roles });
    await this.options.audit.record(tx, user.tenantId, SYSTEM_ACTOR, 'user.roles_changed', target(user), {
      from: user.roles,
      to: roles,
      via: 'sso',
    });
    changed({ type: 'user', id: user.id });
    await this.options.users.endSessions(tx, user.id);
    return { ...user, roles };
  }
}

function target(user: { id: string; email: string }) {
  return { type: 'user', id: user.id, name: user.email } as const;
}
