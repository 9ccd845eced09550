import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import {
  requireOwnTenant,
  requirePermission,
  requireRecentSignIn,
  requireSystem,
  type Actor,
} from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidRequestError, NotFoundError } from '../shared/errors.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import type { UserRepository } from '../users/user-repository.ts';
import type { SsoConfigRow, SsoRepository } from './sso-repository.ts';

export type SsoAdminOptions = {
  uow: UnitOfWork;
  rows: SsoRepository;
  users: UserRepository;
  tenants: TenantRepository;
  audit: AuditService;
  clock: Clock;
};

export type DomainMove = { domain: string; from: string; to?: string | undefined };
export type DomainMoved = { domain: string; from: string; to: string | null };

/**
 * What people, not sign-ins, change about single sign-on outside the settings form
 * (docs/sso.md): unlinking a user's identity, and an operator moving a domain between tenants.
 */
export class SsoAdmin {
  private readonly options: SsoAdminOptions;
  constructor(options: SsoAdminOptions) {
    this.options = options;
  }

  /**
   * Forgets which provider identity is this user: the next SSO sign-in finds them by e-mail again
   * (or, linked elsewhere, not at all). Idempotent; audited when an identity went.
   */
  async unlink(actor: Actor, tenantId: string, userId: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    requireOwnTenant(actor, tenantId);
    // Changes who may sign in as this account: as sensitive as changing its roles.
    requireRecentSignIn(actor, this.options.clock);
    const { uow, rows, users, audit } = this.options;
    await uow.inTransaction(async (tx) => {
      // Another tenant's user is as unknown as a missing one.
      const user = await users.findInTenant(tx, tenantId, userId);
      if (!user) throw new NotFoundError('user');
      const issuers = await rows.unlinkAll(tx, user.id);
      if (issuers.length === 0) return;
      await audit.record(
        tx,
        tenantId,
        actor,
        'user.sso_identity_unlinked',
        { type: 'user', id: user.id, name: user.email },
        { issuers },
      );
    });
  }

  /** The domains a tenant's single sign-on allows, or undefined without one (for the CLI and tests). */
  async domainsOf(tenantId: string): Promise<string[] | undefined> {
    return (await this.options.rows.configOf(tenantId))?.allowedDomains;
  }

  /**
   * Takes a domain from one tenant's `allowed_domains` and, with `to`, adds it to another's, in
   * one transaction: there is no moment where both list it, nor one where a third could take it.
   */
  async moveDomain(actor: Actor, move: DomainMove): Promise<DomainMoved> {
    requireSystem(actor, 'move a single sign-on domain between tenants');
    const domain = move.domain.trim().toLowerCase();
    const { uow, rows, tenants } = this.options;
    const from = await tenants.findBySlug(move.from);
    if (!from) throw new NotFoundError(`tenant "${move.from}"`);
    const to = move.to === undefined ? undefined : await tenants.findBySlug(move.to);
    if (move.to !== undefined && !to) throw new NotFoundError(`tenant "${move.to}"`);
    return uow.inTransaction(async (tx) => {
      // Always in the same order, so two moves between the same tenants cannot deadlock.
      for (const id of [from.id, to?.id].filter((v): v is string => v !== undefined).sort()) await tenants.lock(tx, id);
      const source = await rows.configOf(from.id, tx);
      if (!source?.allowedDomains.includes(domain)) {
        throw InvalidRequestError.field('domain', `Tenant "${move.from}" does not allow ${domain}.`);
      }
      const target = to ? await rows.configOf(to.id, tx) : undefined;
      if (to && !target) throw InvalidRequestError.field('to', `Tenant "${move.to}" has no single sign-on set up.`);
      await this.setDomains(
        tx,
        actor,
        from,
        source,
        source.allowedDomains.filter((d) => d !== domain),
      );
      if (to && target) await this.setDomains(tx, actor, to, target, [...target.allowedDomains, domain].sort());
      return { domain, from: from.slug, to: to?.slug ?? null };
    });
  }

  private async setDomains(
    tx: Db,
    actor: Actor,
    tenant: { id: string; name: string },
    config: SsoConfigRow,
    domains: string[],
  ): Promise<void> {
    await this.options.rows.saveConfig(tx, { ...config, allowedDomains: domains });
    await this.options.audit.record(
      tx,
      tenant.id,
      actor,
      'tenant.sign_in_settings_changed',
      { type: 'tenant', id: tenant.id, name: tenant.name },
      { from: { allowed_domains: config.allowedDomains }, to: { allowed_domains: domains } },
    );
  }
}
