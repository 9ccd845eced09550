/** The part of oidc-provider (which ships no types) airkey and its test kit use. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AccountClaims = Record<string, unknown> & { sub: string };
  export type Account = { accountId: string; claims(): Promise<AccountClaims> };
  export type GrantLike = {
    jti: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  };
  export type ClientLike = {
    clientId: string;
    clientName?: string;
    redirectUris?: string[];
    clientIdMetadataDocument?: boolean;
    /** RFC 7591 `client_id_issued_at` (epoch seconds): a registered client's registration. */
    clientIdIssuedAt?: number;
  };
  export type InteractionLike = {
    uid: string;
    returnTo: string;
    exp: number;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; redirect_uri?: string; resource?: string | string[] };
    result?: Record<string, unknown>;
    session?: { accountId?: string };
    grantId?: string;
    save(ttl: number): Promise<string>;
  };
  export type OidcContext = {
    status: number;
    type: string;
    body: unknown;
    oidc: {
      client?: ClientLike;
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      params?: Record<string, unknown>;
      provider: Provider;
    };
  };

  export class OIDCProviderError extends Error {
    error: string;
    error_description?: string;
    status: number;
  }
  export const errors: {
    InvalidTarget: new (description?: string) => OIDCProviderError;
    InvalidClientMetadata: new (description?: string) => OIDCProviderError;
    InvalidRedirectUri: new (description?: string) => OIDCProviderError;
    AccessDenied: new (description?: string) => OIDCProviderError;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    issuer: string;
    Grant: {
      new (properties: { clientId: string; accountId: string }): GrantLike;
      find(id: string): Promise<GrantLike | undefined>;
      prototype: { generateTokenId(): string };
    };
    Client: { find(id: string): Promise<ClientLike | undefined> };
    AccessToken: { find(value: string): Promise<{ grantId: string; accountId: string } | undefined> };
    Interaction: { find(uid: string): Promise<InteractionLike | undefined> };
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    use(
      middleware: (
        ctx: {
          method: string;
          path: string;
          url: string;
          ip: string;
          status: number;
          body: unknown;
          set(name: string, value: string): void;
          req: { originalUrl?: string };
          query: Record<string, string | string[] | undefined>;
        },
        next: () => Promise<void>,
      ) => Promise<void>,
    ): void;
  }
}
