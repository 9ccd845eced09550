import type OidcProvider from 'oidc-provider';
import type { ProviderRevocation } from './grant-service.ts';
import type { InteractionBinding } from './interaction-binding.ts';

type Token = { jti?: string; accountId?: string; clientId?: string; consumed?: unknown };
type HookContext = {
  path: string;
  method: string;
  status: number;
  ip: string;
  secure: boolean;
  cookies: { set(name: string, value: string, options: Record<string, unknown>): void };
  oidc?: {
    route?: string;
    client?: { clientName?: string };
    entities?: {
      Grant?: Token;
      RefreshToken?: Token;
      AuthorizationCode?: Token;
      AccessToken?: Token;
      Interaction?: { uid: string; exp: number };
      Client?: { clientId: string; clientName?: string };
    };
  };
};

export type RevocationFacts = { accountId?: string; clientId?: string; appName?: string };

export type ProviderHooks = {
  binding: InteractionBinding;
  /** A token was issued for the grant (a code exchanged or a refresh token used). */
  onTokenIssued(grantId: string, clientId: string): Promise<void>;
  /** A client registered itself (RFC 7591), from this address: no tenant's yet, so only logged. */
  onRegistered(client: { clientId: string; clientName?: string }, address: string): void;
  /** The provider itself revoked a grant (already deleted and announced); the response waits for its audit. */
  onGrantRevoked(grantId: string, facts: RevocationFacts, by: ProviderRevocation): Promise<void>;
};

/**
 * What airkey adds around the provider's own work, each finished before its response leaves: the
 * consent's browser binding after an authorization request, a grant's and client's last use after
 * a token, the log line of a registration, and the audit of a grant the provider revoked itself (its
 * change-feed notice left with the deletion, record-adapter.ts).
 */
export function installProviderHooks(provider: OidcProvider, hooks: ProviderHooks): void {
  const revoked = new WeakMap<object, Array<() => Promise<void>>>();
  provider.on('grant.revoked', (context, grantId) => {
    const ctx = context as HookContext;
    const pending = revoked.get(ctx) ?? [];
    pending.push(() => hooks.onGrantRevoked(String(grantId), factsOf(ctx), revocationBy(ctx)));
    revoked.set(ctx, pending);
  });
  provider.use(async (context, next) => {
    const ctx = context as unknown as HookContext;
    try {
      await next();
    } finally {
      for (const notice of revoked.get(ctx) ?? []) await notice();
    }
    const entities = ctx.oidc?.entities;
    if (ctx.method === 'POST' && ctx.path === '/token' && ctx.status === 200) {
      const grant = entities?.Grant;
      if (grant?.jti && grant.clientId) await hooks.onTokenIssued(grant.jti, grant.clientId);
    }
    if (ctx.method === 'POST' && ctx.path === '/reg' && ctx.status === 201 && entities?.Client) {
      hooks.onRegistered(entities.Client, ctx.ip);
    }
    const interaction = entities?.Interaction;
    if (ctx.method === 'GET' && ctx.status === 303 && interaction) {
      const { name, value, path } = hooks.binding.cookie(interaction.uid);
      ctx.cookies.set(name, value, {
        path,
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.secure,
        overwrite: true,
        signed: false,
        expires: new Date(interaction.exp * 1000),
      });
    }
  });
}

function factsOf(ctx: HookContext): RevocationFacts {
  const e = ctx.oidc?.entities ?? {};
  const token = e.Grant ?? e.RefreshToken ?? e.AuthorizationCode ?? e.AccessToken;
  return { accountId: token?.accountId, clientId: token?.clientId, appName: ctx.oidc?.client?.clientName };
}

function revocationBy(ctx: HookContext): ProviderRevocation {
  if (ctx.oidc?.route === 'revocation') return 'client';
  return ctx.oidc?.entities?.RefreshToken?.consumed ? 'refresh_token_replay' : 'authorization_code_replay';
}
