import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { requirePermission, requireRecentSignIn, requireSystem, type Actor, type UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidRequestError, NotFoundError, PermissionDeniedError } from '../shared/errors.ts';
import type { TenantRepository, TenantRow } from './tenant-repository.ts';
import type { SignInSettings, SignInSettingsPatch } from './sign-in-settings-schemas.ts';
import type { SsoSettings, SsoSettingsInput } from './sso-settings-schemas.ts';

/** Where a tenant's identity provider is kept (the sso feature seals the secret and checks the issuer). */
export interface SsoSettingsStore {
  view(tenantId: string, tx?: Db): Promise<SsoSettings | null>;
  /** Checks and saves the provider, or removes it (null); says whether the client secret changed. */
  save(tx: Db, tenantId: string, input: SsoSettingsInput | null): Promise<{ secretChanged: boolean }>;
}

export type SignInSettingsServiceOptions = {
  uow: UnitOfWork;
  tenants: TenantRepository;
  audit: AuditService;
  clock: Clock;
  sso: SsoSettingsStore;
};

/**
 * Who must hold a second factor, whether passwords sign in at all, and the tenant's identity
 * provider. Only System Administrators read or change them: a role map can grant any role.
 */
export class SignInSettingsService {
  private readonly options: SignInSettingsServiceOptions;
  constructor(options: SignInSettingsServiceOptions) {
    this.options = options;
  }

  async get(actor: UserActor, tenantId: string): Promise<SignInSettings> {
    requireSystemAdministrator(actor, tenantId);
    return toView(await this.requireTenant(tenantId), await this.options.sso.view(tenantId));
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
    const { uow, tenants, sso, audit } = this.options;
    return uow.inTransaction(async (tx) => {
      const before = await tenants.lock(tx, tenantId);
      if (!before) throw new NotFoundError('tenant');
      const ssoBefore = await sso.view(tenantId, tx);
      const values = {
        secondFactorRequired: patch.second_factor_required ?? before.secondFactorRequired,
        passwordSignIn: patch.password_sign_in ?? before.passwordSignIn,
        oauthApps: patch.oauth_apps ?? before.oauthApps,
      };
      const ssoSet = patch.sso === undefined ? ssoBefore !== null : patch.sso !== null;
      // Without an identity provider, turning passwords off would lock everyone out.
      if (!values.passwordSignIn && !ssoSet) {
        throw InvalidRequestError.field(
          patch.sso === null ? 'sso' : 'password_sign_in',
          'Password sign-in can be off only while single sign-on is set up.',
        );
      }
      const { secretChanged } =
        patch.sso === undefined ? { secretChanged: false } : await sso.save(tx, tenantId, patch.sso);
      const from = toView(before, ssoBefore);
      const to = toView({ ...before, ...values }, await sso.view(tenantId, tx));
      if (JSON.stringify(from) === JSON.stringify(to) && !secretChanged) return to;
      await tenants.setSignInSettings(tx, tenantId, values);
      await audit.record(
        tx,
        tenantId,
        actor,
        'tenant.sign_in_settings_changed',
        { type: 'tenant', id: tenantId, name: before.name },
        // The secret itself never: only that it changed.
        { from, to, ...(secretChanged ? { client_secret_changed: true } : {}) },
      );
      return to;
    });
  }

  private async requireTenant(tenantId: string): Promise<TenantRow> {
    const tenant = await this.options.tenants.findById(tenantId);
    if (!tenant) throw new NotFoundError('tenant');
    return tenant;
  }
}

export function requireSystemAdministrator(actor: UserActor, tenantId: string): void {
  requirePermission(actor, 'users:manage');
  if (!actor.roles.includes('system_administrator')) {
    throw new PermissionDeniedError(
      'system_administrator',
      'Only a System Administrator may see or change sign-in settings.',
    );
  }
  if (actor.tenantId !== tenantId) throw new NotFoundError('tenant');
}

function toView(tenant: TenantRow, sso: SsoSettings | null): SignInSettings {
  return {
    second_factor_required: tenant.secondFactorRequired,
    password_sign_in: tenant.passwordSignIn,
    sso,
    oauth_apps: tenant.oauthApps,
  };
}
