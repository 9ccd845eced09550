import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { requirePermission, requireRecentSignIn, requireSystem, type Actor, type UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidRequestError, NotFoundError, PermissionDeniedError } from '../shared/errors.ts';
import type { TenantRepository, TenantRow } from './tenant-repository.ts';
import type { SignInSettings, SignInSettingsPatch } from './sign-in-settings-schemas.ts';

export type SignInSettingsServiceOptions = {
  uow: UnitOfWork;
  tenants: TenantRepository;
  audit: AuditService;
  clock: Clock;
};

/**
 * Who must hold a second factor, and whether passwords sign in at all. Only System Administrators
 * read or change them: they decide who can reach the key page, as a role map would.
 */
export class SignInSettingsService {
  private readonly options: SignInSettingsServiceOptions;
  constructor(options: SignInSettingsServiceOptions) {
    this.options = options;
  }

  async get(actor: UserActor, tenantId: string): Promise<SignInSettings> {
    requireSystemAdministrator(actor, tenantId);
    return toView(await this.requireTenant(tenantId));
  }

  async update(actor: UserActor, tenantId: string, patch: SignInSettingsPatch): Promise<SignInSettings> {
    requireSystemAdministrator(actor, tenantId);
    requireRecentSignIn(actor, this.options.clock);
    return this.apply(actor, tenantId, patch);
  }

  /** The CLI's way in (an operator turning password sign-in back on while the provider is down). */
  async updateAsSystem(actor: Actor, slug: string, patch: SignInSettingsPatch): Promise<SignInSettings> {
    requireSystem(actor, "change a tenant's sign-in settings");
    const tenant = await this.options.tenants.findBySlug(slug);
    if (!tenant) throw new NotFoundError(`tenant "${slug}"`);
    return this.apply(actor, tenant.id, patch);
  }

  private async apply(actor: Actor, tenantId: string, patch: SignInSettingsPatch): Promise<SignInSettings> {
    // Without an identity provider, turning passwords off would lock everyone out.
    if (patch.password_sign_in === false) {
      throw InvalidRequestError.field('password_sign_in', 'Set up single sign-on before turning password sign-in off.');
    }
    const updated = await this.options.uow.inTransaction(async (tx) => {
      const before = await this.options.tenants.lock(tx, tenantId);
      if (!before) throw new NotFoundError('tenant');
      const values = {
        secondFactorRequired: patch.second_factor_required ?? before.secondFactorRequired,
        passwordSignIn: patch.password_sign_in ?? before.passwordSignIn,
      };
      const after = { ...before, ...values };
      if (JSON.stringify(toView(before)) === JSON.stringify(toView(after))) return before;
      await this.options.tenants.setSignInSettings(tx, tenantId, values);
      await this.options.audit.record(
        tx,
        tenantId,
        actor,
        'tenant.sign_in_settings_changed',
        { type: 'tenant', id: tenantId, name: before.name },
        { from: toView(before), to: toView(after) },
      );
      return after;
    });
    return toView(updated);
  }

  private async requireTenant(tenantId: string): Promise<TenantRow> {
    const tenant = await this.options.tenants.findById(tenantId);
    if (!tenant) throw new NotFoundError('tenant');
    return tenant;
  }
}

function requireSystemAdministrator(actor: UserActor, tenantId: string): void {
  requirePermission(actor, 'users:manage');
  if (!actor.roles.includes('system_administrator')) {
    throw new PermissionDeniedError(
      'system_administrator',
      'Only a System Administrator may see or change sign-in settings.',
    );
  }
  if (actor.tenantId !== tenantId) throw new NotFoundError('tenant');
}

function toView(tenant: TenantRow): SignInSettings {
  return { second_factor_required: tenant.secondFactorRequired, password_sign_in: tenant.passwordSignIn, sso: null };
}
