import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { FactorFlagsRepository } from '../second-factors/factor-flags-repository.ts';
import type { ClientContext, OpenedSession, SessionService } from '../sessions/session-service.ts';
import type { UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { randomToken, sha256Hex, type RandomBytes } from '../shared/digest.ts';
import { InvalidRequestError } from '../shared/errors.ts';
import { requireSystemAdministrator } from '../tenants/sign-in-settings-service.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import { checkIssuer } from './issuer-rules.ts';
import type { OidcClient, ProviderIdentity } from './oidc-client.ts';
import { flowRefusal } from './flow-checks.ts';
import { safeNext } from './safe-next.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { auditRefusal } from './sso-audit.ts';
import type { SsoAccounts } from './sso-accounts.ts';
import { SsoRefusal, type SsoRefusalCode } from './sso-refusals.ts';
import type { SsoTestResult } from './sso-schemas.ts';
import type { SsoFlowRow, SsoRepository, TenantWithSso } from './sso-repository.ts';
import { domainOf, rolesFromClaims } from './sso-roles.ts';
import type { SsoSettingsRepositoryStore } from './sso-settings-store.ts';

/** A sign-in sent to the provider must come back this soon. */
const FLOW_TTL_MS = 10 * 60_000;

/** Who wants to sign in: the organisation's slug, or an e-mail whose domain one organisation allows. */
export type SsoStartRequest = { org?: string | undefined; email?: string | undefined; next?: string | undefined };
export type SsoStart = { location: string; browserToken: string; expiresAt: Date };
export type SsoCallbackResult =
  | { kind: 'signed_in'; session: OpenedSession; next: string | null; reauthenticated: boolean }
  | { kind: 'refused'; reason: SsoRefusalCode; next: string | null };

export type SsoServiceOptions = {
  uow: UnitOfWork;
  rows: SsoRepository;
  store: SsoSettingsRepositoryStore;
  client: OidcClient;
  accounts: SsoAccounts;
  sessions: SessionService;
  tenants: TenantRepository;
  flags: FactorFlagsRepository;
  audit: AuditService;
  clock: Clock;
  /** SSO_ALLOW_PRIVATE=1: a tested issuer may be http: or private, as a saved one may. */
  allowPrivate: boolean;
  random?: RandomBytes;
};

/**
 * Single sign-on with a tenant's own provider (docs/sso.md). The order of the callback's checks,
 * said once: the state (taken once, this browser, not expired) → the issuer it went to (and `iss`
 * in the answer) → the code grant and the ID token → a verified e-mail of an allowed domain → the
 * linked or found or created user → roles from the claim → a session. Every refusal is an outcome:
 * audited, and the page says why.
 */
export class SsoService {
  private readonly options: SsoServiceOptions;
  constructor(options: SsoServiceOptions) {
    this.options = options;
  }

  /** Sends the browser to the provider; re-authentication (a session) asks it to sign in anew (max_age=0). */
  async start(
    request: SsoStartRequest,
    redirectUri: string,
    browserToken: string | undefined,
    client: ClientContext,
    reauth?: UserActor,
  ): Promise<SsoStart> {
    const tenant = reauth ? await this.options.rows.byId(reauth.tenantId) : await this.options.rows.tenantFor(request);
    if (!tenant) throw new SsoRefusal(reauth ? 'sso_not_configured' : 'sso_unknown_organisation');
    const config = await this.options.client.discover(this.providerOf(tenant)).catch(async (error: unknown) => {
      if (error instanceof SsoRefusal)
        await this.audited(tenant.tenant.id, tenant.config.issuer, error, undefined, client);
      throw error;
    });
    const authorization = await this.options.client.authorizationRequest(config, redirectUri, reauth !== undefined);
    const token = browserToken && browserToken.length >= 43 ? browserToken : randomToken(32, this.options.random);
    const expiresAt = new Date(this.options.clock.nowMs() + FLOW_TTL_MS);
    await this.options.rows.insertFlow({
      stateDigest: sha256Hex(authorization.state),
      browserDigest: sha256Hex(token),
      tenantId: tenant.tenant.id,
      issuer: tenant.config.issuer,
      nonce: authorization.nonce,
      codeVerifier: authorization.codeVerifier,
      next: safeNext(request.next),
      reauthSessionId: reauth?.signIn.sessionId ?? null,
      reauthUserId: reauth?.id ?? null,
      expiresAt,
      usedAt: null,
    });
    return { location: authorization.url, browserToken: token, expiresAt };
  }

  /** The provider's answer: a session (or a renewed one), or a refusal with its reason. */
  async callback(
    params: URLSearchParams,
    browserToken: string | undefined,
    client: ClientContext,
    redirectUri: string,
    current: UserActor | undefined,
  ): Promise<SsoCallbackResult> {
    const state = params.get('state');
    const taken = state ? await this.options.rows.takeFlow(sha256Hex(state), this.options.clock.now()) : undefined;
    // No flow, no tenant to audit to: nothing was started with this state.
    if (!taken) return { kind: 'refused', reason: 'sso_state_invalid', next: null };
    const { flow } = taken;
    let email: string | undefined;
    try {
      const refused = flowRefusal(
        taken,
        browserToken ? sha256Hex(browserToken) : undefined,
        this.options.clock.nowMs(),
      );
      if (refused) throw refused;
      const tenant = await this.options.rows.byId(flow.tenantId);
      if (!tenant) throw new SsoRefusal('sso_not_configured');
      if (tenant.config.issuer !== flow.issuer)
        throw new SsoRefusal('sso_issuer_mismatch', { why: 'provider_changed' });
      const providerError = params.get('error');
      if (providerError !== null)
        throw new SsoRefusal('sso_provider_error', { provider_error: providerError.slice(0, 100) });
      const identity = await this.identify(tenant, flow, params, redirectUri);
      email = typeof identity.claims.email === 'string' ? identity.claims.email.trim().toLowerCase() : undefined;
      return await this.signIn(tenant, flow, identity, email, client, current);
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      await this.audited(flow.tenantId, flow.issuer, error, email, client);
      return { kind: 'refused', reason: error.reason, next: flow.next };
    }
  }

  /**
   * "Test the connection": discovery of the given issuer (before saving it) or of the saved one,
   * through the same guard as a sign-in; says what it found or why it could not.
   */
  async test(actor: UserActor, tenantId: string, issuer: string | undefined): Promise<SsoTestResult> {
    requireSystemAdministrator(actor, tenantId);
    const saved = await this.options.rows.byId(tenantId);
    const provider = issuer
      ? {
          issuer: checkIssuer(issuer, this.options.allowPrivate),
          clientId: saved?.config.clientId ?? 'airkey',
          clientSecret: 'discovery sends no secret',
        }
      : saved
        ? this.providerOf(saved)
        : undefined;
    if (!provider) throw InvalidRequestError.field('issuer', 'No identity provider is saved: give an issuer to test.');
    try {
      return { reachable: true, discovery: await this.options.client.report(provider) };
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      return {
        reachable: false,
        reason: error.reason,
        detail: typeof error.detail.error === 'string' ? error.detail.error : error.message,
      };
    }
  }

  /** Housekeeping: flows never answered, and used ones past their end. */
  async deleteExpired(): Promise<void> {
    await this.options.rows.deleteExpiredFlows(this.options.clock.now());
  }

  private async identify(tenant: TenantWithSso, flow: SsoFlowRow, params: URLSearchParams, redirectUri: string) {
    const config = await this.options.client.discover(this.providerOf(tenant));
    // RFC 9207: an answer naming another issuer was meant for another provider (a mix-up).
    const iss = params.get('iss');
    if (iss !== null && iss !== config.serverMetadata().issuer) {
      throw new SsoRefusal('sso_issuer_mismatch', { iss: iss.slice(0, 300) });
    }
    const callbackUrl = new URL(redirectUri);
    callbackUrl.search = params.toString();
    return this.options.client.complete(config, callbackUrl, {
      state: params.get('state')!,
      nonce: flow.nonce,
      codeVerifier: flow.codeVerifier,
      reauth: flow.reauthUserId !== null,
      roleClaim: tenant.config.roleClaim,
    });
  }

  private async signIn(
    tenant: TenantWithSso,
    flow: SsoFlowRow,
    identity: ProviderIdentity,
    email: string | undefined,
    client: ClientContext,
    current: UserActor | undefined,
  ): Promise<SsoCallbackResult> {
    const { claims } = identity;
    if (!email) throw new SsoRefusal('sso_email_missing');
    if (claims.email_verified !== true) throw new SsoRefusal('sso_email_unverified');
    const domain = domainOf(email);
    if (!domain || !tenant.config.allowedDomains.includes(domain))
      throw new SsoRefusal('sso_domain_not_allowed', { domain });
    const roles = rolesFromClaims(claims, tenant.config);
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : email;
    const person = { issuer: flow.issuer, subject: identity.subject, email, name };
    const reauth = flow.reauthUserId !== null;
    // A re-authentication belongs to the session that asked for it, in this browser.
    if (reauth && (!current || current.signIn.sessionId !== flow.reauthSessionId)) {
      throw new SsoRefusal('sso_reauthentication_mismatch');
    }
    const settle = () =>
      this.options.uow.inTransaction(async (tx, changed) => {
        const found = await this.options.accounts.find(tx, tenant, person, !reauth, roles);
        // A re-authentication proves the same person again; it changes nothing else.
        if (reauth || found.created) return found.user;
        return this.options.accounts.applyRoles(tx, changed, found.user, roles);
      });
    // Two first sign-ins of one new person at once: both create, the unique e-mail lets one win,
    // and the other, run again, finds the user the winner created and linked.
    const user = await settle().catch((error: unknown) => {
      if (isUniqueViolation(error)) return settle();
      throw error;
    });
    const factors = await this.options.flags.flagsOf(user.id);
    const requirement = (await this.options.tenants.findById(user.tenantId))?.secondFactorRequired ?? 'none';
    if (reauth) {
      if (user.id !== flow.reauthUserId) throw new SsoRefusal('sso_reauthentication_mismatch');
      const session = await this.options.sessions.renew(current!, 'sso', client, factors, requirement);
      return { kind: 'signed_in', session, next: flow.next, reauthenticated: true };
    }
    const session = await this.options.sessions.open(user, 'sso', client, factors, requirement);
    return { kind: 'signed_in', session, next: flow.next, reauthenticated: false };
  }

  private audited(
    tenantId: string,
    issuer: string,
    refusal: SsoRefusal,
    email: string | undefined,
    client: ClientContext,
  ) {
    const { uow, audit, rows } = this.options;
    return auditRefusal({ uow, audit, rows }, { tenantId, issuer, refusal, email, client });
  }

  private providerOf(tenant: TenantWithSso) {
    const { issuer, clientId } = tenant.config;
    return { issuer, clientId, clientSecret: this.options.store.openSecret(tenant.config) };
  }
}
