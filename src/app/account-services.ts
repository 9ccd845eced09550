import type { Config } from '../config.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { CreatorKeys } from '../keys/lifecycle/creator-keys.ts';
import { FactorFlagsRepository } from '../second-factors/factor-flags-repository.ts';
import { PasskeyRepository } from '../second-factors/passkeys/passkey-repository.ts';
import { Passkeys } from '../second-factors/passkeys/passkeys.ts';
import { RecoveryCodeRepository } from '../second-factors/recovery-codes/recovery-code-repository.ts';
import { SecondFactorService } from '../second-factors/second-factor-service.ts';
import { TotpRepository } from '../second-factors/totp/totp-repository.ts';
import { SecondFactorVerifier, type Sealer } from '../second-factors/verify-second-factor.ts';
import { PendingSignInRepository } from '../sessions/pending-sign-in-repository.ts';
import { SessionRepository } from '../sessions/session-repository.ts';
import { sessionLimitsOf } from '../sessions/session-rules.ts';
import { SessionService } from '../sessions/session-service.ts';
import { SignInAttempts } from '../sessions/sign-in-attempts.ts';
import { SignInService } from '../sessions/sign-in-service.ts';
import type { Clock } from '../shared/clock.ts';
import { OidcClient } from '../sso/oidc-client.ts';
import { SsoAccounts } from '../sso/sso-accounts.ts';
import { SsoAdmin } from '../sso/sso-admin.ts';
import { SsoRepository } from '../sso/sso-repository.ts';
import { SsoService } from '../sso/sso-service.ts';
import { SsoSettingsRepositoryStore } from '../sso/sso-settings-store.ts';
import { SignInSettingsService } from '../tenants/sign-in-settings-service.ts';
import { TenantRepository } from '../tenants/tenant-repository.ts';
import { TenantService } from '../tenants/tenant-service.ts';
import { UserRepository } from '../users/user-repository.ts';
import { UserService } from '../users/user-service.ts';
import { safeAgent, type Resolver } from '../webhooks/safe-agent.ts';
import type { Database } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { AccountServices, SignInServices } from './service-types.ts';
import type { Throttles } from './throttles.ts';

export type AccountDeps = {
  config: Config;
  clock: Clock;
  database: Database;
  uow: UnitOfWork;
  audit: AuditService;
  /** The webhooks' box seals TOTP and SSO client secrets too. */
  secrets: Sealer;
  throttles: Throttles;
  creatorKeys: CreatorKeys;
  reportError: (error: unknown) => void;
  ssoResolver?: Resolver | undefined;
};

/**
 * Tenants, users and the door to the back office (docs/sign-in.md): sign-in, second factors,
 * sessions, sign-in settings and single sign-on. TOTP and SSO client secrets are sealed with the
 * same key as webhook secrets; requests to identity providers pass the webhooks' address guard.
 */
export function buildAccounts(deps: AccountDeps): { accounts: AccountServices; signIn: SignInServices } {
  const { config, clock, uow, audit, secrets, throttles, creatorKeys, ssoResolver } = deps;
  const { db } = deps.database;
  const tenantRows = new TenantRepository(db);
  const userRows = new UserRepository(db);
  const totp = new TotpRepository(db);
  const passkeyRows = new PasskeyRepository(db);
  const recoveryCodes = new RecoveryCodeRepository(db);
  const flags = new FactorFlagsRepository(db);
  const passkeys = new Passkeys({ repository: passkeyRows, clock });
  const verifier = new SecondFactorVerifier({ totp, recoveryCodes, passkeys, secrets, clock });
  const sessions = new SessionService({
    uow,
    sessions: new SessionRepository(db),
    users: userRows,
    audit,
    clock,
    limits: sessionLimitsOf(config),
  });
  // Every password and code given at the door, also a wrong current password on the Security page.
  const attempts = new SignInAttempts({
    uow,
    audit,
    perClient: throttles.signInFailures,
    spray: throttles.signInSpray,
    secondFactors: throttles.signInSecondFactors,
    passwords: throttles.signInPasswords,
    onError: deps.reportError,
  });
  const ssoRows = new SsoRepository(db);
  const ssoStore = new SsoSettingsRepositoryStore({
    rows: ssoRows,
    sealer: secrets,
    allowPrivate: config.ssoAllowPrivate,
  });
  const oidc = new OidcClient({
    dispatcher: safeAgent({
      allowPrivate: config.ssoAllowPrivate,
      connectTimeoutMs: 10_000,
      ...(ssoResolver ? { resolver: ssoResolver } : {}),
    }),
    allowInsecure: config.ssoAllowPrivate,
    clock,
  });
  const accounts: AccountServices = {
    tenants: new TenantService({ uow, tenants: tenantRows, keys: creatorKeys, audit }),
    users: new UserService({
      uow,
      users: userRows,
      tenants: tenantRows,
      keys: creatorKeys,
      audit,
      clock,
      withSecondFactor: (userIds) => flags.usersWithSecondFactor(userIds),
      checkCurrentPassword: (user, address, verify) =>
        attempts.check({ account: user.email, user, method: 'password', client: { address, userAgent: '' } }, verify),
    }),
  };
  const signIn: SignInServices = {
    sessions,
    signIns: new SignInService({
      uow,
      sessions,
      pending: new PendingSignInRepository(db),
      users: userRows,
      tenants: tenantRows,
      flags,
      verifier,
      passkeys,
      audit,
      attempts,
      throttle: throttles.signInFailures,
      sprayThrottle: throttles.signInSpray,
      preSessionWork: throttles.preSessionWork,
      clock,
    }),
    secondFactors: new SecondFactorService({
      uow,
      totp,
      passkeyRows,
      passkeys,
      recoveryCodes,
      flags,
      users: userRows,
      tenants: tenantRows,
      audit,
      secrets,
      clock,
    }),
    settings: new SignInSettingsService({ uow, tenants: tenantRows, audit, clock, sso: ssoStore }),
    sso: new SsoService({
      uow,
      rows: ssoRows,
      store: ssoStore,
      client: oidc,
      accounts: new SsoAccounts({ rows: ssoRows, users: userRows, tenants: tenantRows, audit }),
      sessions,
      tenants: tenantRows,
      flags,
      audit,
      clock,
      allowPrivate: config.ssoAllowPrivate,
    }),
    ssoAdmin: new SsoAdmin({ uow, rows: ssoRows, users: userRows, tenants: tenantRows, audit, clock }),
  };
  return { accounts, signIn };
}
