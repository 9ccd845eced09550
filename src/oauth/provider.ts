import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { ClientLike, OidcContext, default as OidcProvider } from 'oidc-provider';
import type { Clock } from '../shared/clock.ts';
import {
  DOCUMENT_CACHE,
  DOCUMENT_MAX_BYTES,
  documentComplete,
  documentFetchAllowed,
  guardedFetch,
  type DocumentFetchOptions,
} from './client-documents.ts';
import { CONSENT_PAGE_PATH, type OAuthUrls } from './oauth-urls.ts';
import { errors, Provider } from './oidc-provider-module.ts';
import { installProviderHooks, type ProviderHooks } from './provider-hooks.ts';
import { recordAdapter } from './record-adapter.ts';
import type { OAuthRecordRepository } from './record-repository.ts';
import { redirectUriProblem } from './redirect-rules.ts';

/**
 * The one scope of both resources. What a token may do comes from its person's roles at each
 * request, not from scopes; the provider still needs a granted scope to issue a token, so every
 * authorization request asks for this one whatever else it names.
 */
export const RESOURCE_SCOPE = 'access';

/** An access token lives this long (seconds); the refresh token brings the next one. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;

export type ProviderOptions = {
  urls: OAuthUrls;
  records: OAuthRecordRepository;
  clock: Clock;
  /** Revocations publish `{type: 'grant'}` through it and wait for every instance (record-adapter.ts). */
  uow: UnitOfWork;
  /** Shared by every instance on the database: cookies signed on one are read on another. */
  cookieKey: string;
  /** 32 bytes shared by every instance: the Ed25519 key the provider signs with is derived from it. */
  signingSeed: Buffer;
  /** Whether the person a grant acts as still exists. */
  accountExists(userId: string): Promise<boolean>;
  /** OAUTH_GRANT_DAYS: a grant ends this many days after its last use. */
  grantDays: number;
  documents: DocumentFetchOptions;
  /** Open registration spends one per client address; false: refused (429). */
  registrations: { tryTake(client: string): Promise<boolean> };
  hooks: ProviderHooks;
};

/**
 * The OAuth 2.1 authorization server (oidc-provider, certified): code flow with PKCE S256 only,
 * two resources with one audience per opaque token, rotating refresh tokens whose replay revokes
 * the grant, revocation, open registration and client metadata documents. Signing in and consent
 * are the back office's (CONSENT_PAGE_PATH); nothing here renders a page.
 */
export function createProvider(options: ProviderOptions): OidcProvider {
  const { urls } = options;
  const resources = new Set([urls.mcp, urls.api]);
  const grantSeconds = options.grantDays * 86_400;
  const provider = new Provider(urls.issuer, {
    adapter: recordAdapter(options.records, options.clock, options.uow),
    clients: [],
    jwks: { keys: [signingKey(options.signingSeed)] },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    clientDefaults: {
      // Native unless a client says otherwise: loopback redirect URIs then match on any port
      // (RFC 8252 §7.3), and private-use schemes are allowed; the validator below still applies.
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    cookies: { keys: [options.cookieKey] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    scopes: ['openid', 'offline_access'],
    findAccount: async (_ctx: unknown, id: string) =>
      (await options.accountExists(id)) ? { accountId: id, claims: () => Promise.resolve({ sub: id }) } : undefined,
    // Every authorization goes through the back office's consent page: only the grant this very
    // request's consent made is used, never one found through the provider's browser session.
    loadExistingGrant: async (ctx: OidcContext) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${CONSENT_PAGE_PATH}/${interaction.uid}` },
    // A grant outlives the browser's session with the provider: it ends by revocation or disuse.
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // RFC 7009 of an access token ends its grant too (the library's default keeps the grant): the
    // adapter ends the whole grant for any token, and the hooks then audit it like any other.
    revokeGrantPolicy: () => true,
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: grantSeconds,
      Grant: grantSeconds,
      Interaction: 30 * 60,
      Session: 24 * 3600,
    },
    extraClientMetadata: {
      // A hook on every client (registered or by document): its redirect URIs obey our rules.
      properties: ['software_id'],
      validator: (
        _ctx: unknown,
        key: string,
        _value: unknown,
        metadata: { redirect_uris?: string[]; scope?: string },
      ) => {
        if (key !== 'software_id') return;
        // The resource scope is the resources', not the server's: a client that registers for it
        // (the MCP SDK asks for the resource metadata's `scopes_supported`) is registered without it
        // and still gets it for a resource.
        metadata.scope = withoutResourceScope(metadata.scope);
        for (const uri of metadata.redirect_uris ?? []) {
          const problem = redirectUriProblem(uri);
          if (problem) throw new errors.InvalidRedirectUri(`redirect_uris: ${uri} ${problem}`);
        }
      },
    },
    fetch: guardedFetch(options.documents),
    fetchResponseBodyLimits: { 'client_id metadata document': DOCUMENT_MAX_BYTES },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true, initialAccessToken: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        cacheDuration: DOCUMENT_CACHE,
        allowFetch: (_ctx: unknown, clientId: string) => documentFetchAllowed(clientId, options.documents),
        allowClient: (_ctx: unknown, client: ClientLike) => documentComplete(client),
      },
      resourceIndicators: {
        enabled: true,
        // No resource named: the MCP server, the resource most clients come for.
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? urls.mcp,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (!resources.has(resource)) throw new errors.InvalidTarget();
          return {
            scope: 'access',
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_SECONDS,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    // Errors the provider cannot send back to the client are JSON, never an HTML page.
    renderError: (ctx: OidcContext, out: { error: string; error_description?: string }) => {
      ctx.type = 'application/json';
      ctx.body = { error: out.error, error_description: out.error_description };
    },
  });
  // A grant's id is a UUID: it names the grant where a key's id goes (usage, the request log's `key.id`).
  provider.Grant.prototype.generateTokenId = () => randomUUID();
  // Forwarded headers are ours (the adapter in src/http sets them from the public URL): every URL
  // the provider writes starts with the issuer's origin, whatever Host the request carried.
  provider.proxy = true;
  provider.use(async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.path === '/reg' && !(await options.registrations.tryTake(ctx.ip))) {
      ctx.status = 429;
      ctx.set('Retry-After', '3600');
      ctx.body = { error: 'too_many_requests', error_description: 'Too many client registrations from this address.' };
      return;
    }
    if (ctx.method === 'GET' && ctx.path === '/auth') {
      const scopes = new Set(
        String(ctx.query.scope ?? '')
          .split(' ')
          .filter(Boolean),
      );
      if (!scopes.has(RESOURCE_SCOPE)) {
        // The mount path is read from the difference of these two: keep it when the URL changes.
        const original = ctx.req.originalUrl ?? ctx.url;
        const mount = original.slice(0, Math.max(original.indexOf(ctx.url), 0));
        ctx.query = { ...ctx.query, scope: [...scopes, RESOURCE_SCOPE].join(' ') };
        ctx.req.originalUrl = `${mount}${ctx.url}`;
      }
    }
    await next();
  });
  installProviderHooks(provider, options.hooks);
  return provider;
}

function withoutResourceScope(scope: string | undefined): string | undefined {
  if (scope === undefined) return undefined;
  const kept = scope.split(' ').filter((name) => name !== '' && name !== RESOURCE_SCOPE);
  return kept.length > 0 ? kept.join(' ') : undefined;
}

/** An Ed25519 private key (JWK) from 32 bytes: the same on every instance that shares the seed. */
function signingKey(seed: Buffer): Record<string, unknown> {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const jwk = key.export({ format: 'jwk' });
  const x = createPublicKey(key).export({ format: 'jwk' }).x;
  return { ...jwk, x, alg: 'EdDSA', use: 'sig', kid: String(x).slice(0, 16) };
}
