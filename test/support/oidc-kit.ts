import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider, { type OidcContext } from 'oidc-provider';
import { freePort } from './free-port.ts';

/** A person the provider signs in: `sub` is the account id; the other claims are what it says. */
export type TestAccount = { sub: string; email?: string; email_verified?: boolean; name?: string; groups?: string[] };

/** The provider's account the browser tests sign in as: its group maps to System Administrator. */
export const OPS_LEAD: TestAccount = {
  sub: 'ops-lead',
  email: 'lead@demo-air.test',
  email_verified: true,
  name: 'Lee Lead',
  groups: ['airkey-admins'],
};

export type TestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  /** Requests the provider received, by path (discovery, keys, token...): what airkey fetched. */
  requests: Map<string, number>;
  /** Serve another provider's keys as this one's JWKS: its ID tokens then fail the signature check. */
  serveKeysOf(other: TestProvider | null): void;
  close(): Promise<void>;
};

/**
 * A real OpenID provider (oidc-provider, the certified Node implementation) on 127.0.0.1 and a free
 * port, with its development login (any account id, no password) and consent granted up front.
 * Scope claims come from userinfo, as most providers send them; `groups` is the role claim tests map.
 */
export async function startProvider(
  redirectUri: string,
  options: { idTokenTtlSeconds?: number } = {},
): Promise<TestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = `airkey-${randomBytes(3).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map<string, TestAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey()] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    ttl: { IdToken: options.idTokenTtlSeconds ?? 3600, AccessToken: 3600, AuthorizationCode: 600 },
    pkce: { required: () => true },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => Promise.resolve({ ...account }) } : undefined;
    },
    // Consent is the provider's business, not what these tests are about: granted up front.
    loadExistingGrant: async (ctx: OidcContext) => {
      const { client, session, provider: self } = ctx.oidc;
      const existing = ctx.oidc.result?.consent?.grantId ?? session?.grantIdFor(client!.clientId);
      if (existing) return self.Grant.find(existing);
      const grant = new self.Grant({ clientId: client!.clientId, accountId: session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  let keysOf: TestProvider | null = null;
  const requests = new Map<string, number>();
  const handle = provider.callback();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (keysOf && request.url === '/jwks') {
      fetch(`${keysOf.issuer}/jwks`).then(
        async (answer) => response.writeHead(200, { 'content-type': 'application/json' }).end(await answer.text()),
        () => response.writeHead(502).end(),
      );
      return;
    }
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    requests,
    serveKeysOf: (other) => void (keysOf = other),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function selfSubmittingForm(page: string): { action: string; fields: Record<string, string> } | undefined {
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  if (!action || !page.includes('document.forms[0].submit()')) return undefined;
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)].map((m) => [m[1]!, m[2]!]),
  );
  return { action, fields };
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

/**
 * A browser without a window: it keeps each origin's cookies and follows nothing by itself, so a
 * test sees every redirect of the flow (airkey → provider → airkey) and may change one.
 */
export class TestBrowser {
  private static made = 0;
  private readonly jar = new Map<string, Map<string, string>>();
  /**
   * The client this browser is, in an IPv6 /64 of its own: named in X-Forwarded-For, which a server
   * reads only when the test trusts 127.0.0.1 as its proxy (then each browser is throttled apart).
   */
  readonly client = `2001:db8:${(TestBrowser.made += 1).toString(16)}::1`;

  async get(url: string): Promise<Response> {
    return this.send(url, { method: 'GET' });
  }

  async send(url: string, init: RequestInit): Promise<Response> {
    const origin = new URL(url).origin;
    const cookies = [...(this.jar.get(origin) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookies) headers.set('cookie', cookies);
    headers.set('x-forwarded-for', this.client);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.keep(origin, line);
    return response;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  /** The provider's development login as `accountId`; returns where the provider sends the browser back. */
  async signInAtProvider(authorizationUrl: string, accountId: string, until: string): Promise<string> {
    let location = authorizationUrl;
    for (let hop = 0; hop < 10; hop += 1) {
      if (location.startsWith(until)) return location;
      const response = await this.get(location);
      const next = response.headers.get('location');
      if (next) {
        location = new URL(next, location).href;
        continue;
      }
      const page = await response.text();
      // The login form, or a form the page submits by itself (signing another account in ends the
      // provider's session first).
      const form = /name="prompt" value="login"/.test(page)
        ? { action: location, fields: { prompt: 'login', login: accountId, password: 'any' } }
        : selfSubmittingForm(page);
      if (!form) throw new Error(`unexpected provider page: ${page.slice(0, 300)}`);
      const submitted = await this.send(new URL(form.action, location).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form.fields).toString(),
      });
      location = new URL(submitted.headers.get('location') ?? location, location).href;
    }
    throw new Error('the provider did not send the browser back');
  }

  private keep(origin: string, line: string): void {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at).trim();
    const value = pair!.slice(at + 1).trim();
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line);
    if (expired || value === '') cookies.delete(name);
    else cookies.set(name, value);
    this.jar.set(origin, cookies);
  }
}
