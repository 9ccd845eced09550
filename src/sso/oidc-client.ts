import * as oidc from 'openid-client';
import { fetch as undiciFetch, type Dispatcher, type RequestInit } from 'undici';
import type { Clock } from '../shared/clock.ts';
import { ProviderCache } from './provider-cache.ts';
import { SsoRefusal } from './sso-refusals.ts';

/** Which provider, as which client. */
export type ProviderRef = { issuer: string; clientId: string; clientSecret: string };
export type AuthorizationRequest = { url: string; state: string; nonce: string; codeVerifier: string };
/** What the provider says about the person, its signature and freshness verified. */
export type ProviderIdentity = {
  issuer: string;
  subject: string;
  claims: Record<string, unknown>;
};
/** What discovery found, for "test the connection". */
export type DiscoveryReport = {
  issuer: string;
  authorization_endpoint: string | null;
  token_endpoint: string | null;
  userinfo_endpoint: string | null;
  jwks_uri: string | null;
  client_authentication: 'client_secret_basic' | 'client_secret_post';
  scopes_supported: string[] | null;
};

export const SSO_SCOPES = 'openid email profile';

export type OidcClientOptions = {
  /** Connects only where the private-address guard allows (the webhooks' safe agent). */
  dispatcher: Dispatcher;
  /** SSO_ALLOW_PRIVATE=1 also allows http: issuers (a development or test provider). */
  allowInsecure: boolean;
  clock: Clock;
  timeoutSeconds?: number;
};

/**
 * The one place that talks to identity providers, with openid-client (docs/sso.md): discovery,
 * the authorization URL (PKCE S256, state, nonce), the code grant with the ID token's checks, and
 * userinfo when the ID token lacks the e-mail. It decides nothing about who signs in.
 */
export class OidcClient {
  private readonly options: OidcClientOptions;
  private readonly fetch: oidc.CustomFetch;
  private readonly cache: ProviderCache;
  constructor(options: OidcClientOptions) {
    this.options = options;
    this.cache = new ProviderCache(options.clock);
    const cached = this.cache.wrap(
      (url, init) =>
        undiciFetch(url, {
          ...(init as unknown as RequestInit),
          dispatcher: options.dispatcher,
        }) as unknown as Promise<Response>,
    );
    this.fetch = (url, init) => cached(url, init as unknown as globalThis.RequestInit);
  }

  async discover(ref: ProviderRef): Promise<oidc.Configuration> {
    const execute = this.options.allowInsecure ? [oidc.allowInsecureRequests] : [];
    const options = { [oidc.customFetch]: this.fetch, execute, timeout: this.options.timeoutSeconds ?? 10 };
    let config: oidc.Configuration;
    try {
      config = await oidc.discovery(
        new URL(ref.issuer),
        ref.clientId,
        this.metadata(ref),
        oidc.ClientSecretBasic(ref.clientSecret),
        options,
      );
    } catch (error) {
      throw new SsoRefusal('sso_provider_unreachable', { error: describe(error) });
    }
    const metadata = config.serverMetadata();
    // client_secret_basic is the OIDC default; post only when the provider supports no other.
    if (authenticationOf(metadata) === 'client_secret_post') {
      config = new oidc.Configuration(
        metadata,
        ref.clientId,
        this.metadata(ref),
        oidc.ClientSecretPost(ref.clientSecret),
      );
      config[oidc.customFetch] = this.fetch;
      if (this.options.allowInsecure) oidc.allowInsecureRequests(config);
    }
    // openid-client trusts an ID token from the token endpoint on TLS alone unless told otherwise:
    // its signature is checked against the issuer's JWKS, as the contract requires.
    oidc.enableNonRepudiationChecks(config);
    return config;
  }

  /** The provider judges time by the server's clock (an injected one in tests). */
  private metadata(ref: ProviderRef): Partial<oidc.ClientMetadata> {
    return {
      client_id: ref.clientId,
      [oidc.clockSkew]: Math.round((this.options.clock.nowMs() - Date.now()) / 1000),
    };
  }

  async report(ref: ProviderRef): Promise<DiscoveryReport> {
    this.cache.forgetIssuer(ref.issuer);
    const metadata = (await this.discover(ref)).serverMetadata();
    return {
      issuer: metadata.issuer,
      authorization_endpoint: metadata.authorization_endpoint ?? null,
      token_endpoint: metadata.token_endpoint ?? null,
      userinfo_endpoint: metadata.userinfo_endpoint ?? null,
      jwks_uri: metadata.jwks_uri ?? null,
      client_authentication: authenticationOf(metadata),
      scopes_supported: metadata.scopes_supported ?? null,
    };
  }

  /** Re-authentication asks the provider to sign the person in again now (max_age=0). */
  async authorizationRequest(config: oidc.Configuration, redirectUri: string, reauth: boolean) {
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const parameters: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: SSO_SCOPES,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    };
    if (reauth) parameters.max_age = '0';
    const url = oidc.buildAuthorizationUrl(config, parameters).href;
    return { url, state, nonce, codeVerifier } satisfies AuthorizationRequest;
  }

  /**
   * The callback: the code exchanged (with the verifier), the ID token verified (signature from
   * the issuer's keys, iss, aud, exp, nonce, and auth_time for a re-authentication); the e-mail
   * and the role claim from the ID token, else from userinfo.
   */
  async complete(
    config: oidc.Configuration,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string; reauth: boolean; roleClaim: string | null },
  ): Promise<ProviderIdentity> {
    let claims: Record<string, unknown>;
    let accessToken: string;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        pkceCodeVerifier: expected.codeVerifier,
        ...(expected.reauth ? { maxAge: 0 } : {}),
      });
      claims = { ...tokens.claims() };
      accessToken = tokens.access_token;
    } catch (error) {
      const refusal = refusalOf(error);
      const jwksUri = config.serverMetadata().jwks_uri;
      if (refusal.reason === 'sso_signature_invalid' && jwksUri) this.cache.forgetStale(jwksUri);
      throw refusal;
    }
    const subject = claims.sub as string;
    const lacking =
      claims.email === undefined ||
      claims.email_verified === undefined ||
      (expected.roleClaim !== null && claims[expected.roleClaim] === undefined);
    if (lacking && config.serverMetadata().userinfo_endpoint) {
      try {
        const userinfo = await oidc.fetchUserInfo(config, accessToken, subject);
        claims = { ...userinfo, ...claims };
      } catch (error) {
        throw refusalOf(error);
      }
    }
    return { issuer: config.serverMetadata().issuer, subject, claims };
  }
}

function authenticationOf(metadata: oidc.ServerMetadata): DiscoveryReport['client_authentication'] {
  const supported = metadata.token_endpoint_auth_methods_supported;
  return supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')
    ? 'client_secret_post'
    : 'client_secret_basic';
}

/** A failed check of the provider's answer, named for the page and the audit trail. */
function refusalOf(error: unknown): SsoRefusal {
  const detail = { error: describe(error) };
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    return new SsoRefusal('sso_provider_error', { ...detail, provider_error: error.error });
  }
  const code = error instanceof oidc.ClientError ? error.code : undefined;
  const cause = (error as { cause?: { message?: string; cause?: { claim?: string } } }).cause;
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && cause?.cause?.claim === 'nonce') {
    return new SsoRefusal('sso_nonce_mismatch', detail);
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return new SsoRefusal('sso_token_expired', detail);
  if (code === 'OAUTH_KEY_SELECTION_FAILED' || /signature/i.test(cause?.message ?? '')) {
    return new SsoRefusal('sso_signature_invalid', detail);
  }
  if (error instanceof TypeError && !code) return new SsoRefusal('sso_provider_unreachable', detail);
  return new SsoRefusal('sso_token_invalid', detail);
}

/** An error's code and message for the audit trail: never a token (openid-client's messages name none). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${typeof code === 'string' ? `${code} ` : ''}${error.message}${cause}`.slice(0, 300);
}
