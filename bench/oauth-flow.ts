/**
 * The OAuth code flow over real HTTP, as a host and its person's browser run it (docs/oauth.md):
 * discovery from the resources' metadata, RFC 7591 registration, the authorization request with
 * PKCE S256 and `resource`, the bench's System Administrator signed in to the back office approving
 * on the consent API (with the binding cookie the provider set on this browser), and the code
 * exchanged at the token endpoint. Cookies are kept by hand. A bench server listens on port 0, so
 * its public URL (the issuer's origin) names port 0: URLs on it are sent to the listening address.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AirkeyReady } from './airkey-server.ts';

const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

export type Tokens = { access_token: string; refresh_token: string; expires_in: number; token_type: string };
type Metadata = { authorization_endpoint: string; token_endpoint: string; registration_endpoint: string };
type Jar = Map<string, string>;

async function expectStatus(response: Response, statuses: number[], what: string): Promise<Response> {
  if (!statuses.includes(response.status))
    throw new Error(`bench OAuth ${what}: ${response.status} ${await response.text()}`);
  return response;
}

/** Keeps a response's cookies by name (a cleared one is dropped), as a browser would for these paths. */
function keep(jar: Jar, response: Response): void {
  for (const set of response.headers.getSetCookie()) {
    const pair = set.split(';')[0]!;
    const at = pair.indexOf('=');
    const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(set)) jar.delete(name);
    else jar.set(name, value);
  }
}
const cookies = (jar: Jar) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

type Parts = {
  url: string;
  publicOrigin: string;
  metadata: Metadata;
  clientId: string;
  admin: { cookie: string; csrf: string };
  resources: { mcp: string; api: string };
};

export class OAuthFlow {
  private readonly url: string;
  private readonly publicOrigin: string;
  private readonly metadata: Metadata;
  private readonly clientId: string;
  private readonly admin: { cookie: string; csrf: string };
  /** The two resources' identifiers, as their metadata documents give them. */
  readonly resources: { mcp: string; api: string };
  private constructor(parts: Parts) {
    ({
      url: this.url,
      publicOrigin: this.publicOrigin,
      metadata: this.metadata,
      clientId: this.clientId,
      admin: this.admin,
      resources: this.resources,
    } = parts);
  }

  /** Discovery, one registration and the administrator's back-office session: ready to authorize. */
  static async start(airkey: AirkeyReady): Promise<OAuthFlow> {
    const json = async <T>(path: string) =>
      (await (await expectStatus(await fetch(`${airkey.url}${path}`), [200], path)).json()) as T;
    type Resource = { resource: string; authorization_servers: string[] };
    const mcp = await json<Resource>('/.well-known/oauth-protected-resource/mcp');
    const api = await json<Resource>('/.well-known/oauth-protected-resource/api/v1');
    // RFC 8414 §3.1: the well-known name inserted before the issuer's path.
    const issuer = new URL(mcp.authorization_servers[0]!);
    const metadata = await json<Metadata>(`/.well-known/oauth-authorization-server${issuer.pathname}`);
    const local = (url: string) => url.replace(issuer.origin, airkey.url);
    const registered = await fetch(local(metadata.registration_endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'airkey bench',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id } = (await (await expectStatus(registered, [201], 'registration')).json()) as {
      client_id: string;
    };
    const signedIn = await fetch(`${airkey.url}/backoffice/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: airkey.email, password: airkey.password }),
    });
    await expectStatus(signedIn, [200], 'sign-in');
    const session = signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('airkey_session='))!
      .split(';')[0]!;
    const { csrf_token } = (await signedIn.json()) as { csrf_token: string };
    return new OAuthFlow({
      url: airkey.url,
      publicOrigin: issuer.origin,
      metadata,
      clientId: client_id,
      admin: { cookie: session, csrf: csrf_token },
      resources: { mcp: mcp.resource, api: api.resource },
    });
  }

  private local(url: string): string {
    if (url.startsWith('/')) return `${this.url}${url}`;
    return url.startsWith(this.publicOrigin) ? `${this.url}${url.slice(this.publicOrigin.length)}` : url;
  }

  /**
   * A fresh authorization in a fresh browser, approved by the administrator: the code from the
   * redirect to the app, and the PKCE verifier that goes with it.
   */
  async authorize(resource: string): Promise<{ code: string; verifier: string }> {
    const browser: Jar = new Map();
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const query = new URLSearchParams({
      client_id: this.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource,
    });
    const browse = async (url: string, what: string) => {
      const response = await fetch(this.local(url), { redirect: 'manual', headers: { cookie: cookies(browser) } });
      await expectStatus(response, [302, 303], what);
      keep(browser, response);
      await response.arrayBuffer();
      return response.headers.get('location')!;
    };
    const consentPage = await browse(`${this.metadata.authorization_endpoint}?${query}`, 'authorization');
    const uid = /\/backoffice\/oauth\/([^/?]+)/.exec(consentPage)?.[1];
    if (!uid) throw new Error(`bench OAuth authorization: sent to ${consentPage}, not the consent page`);
    // The person signed in to the back office answers from the browser that started the request.
    const approved = await fetch(`${this.url}/backoffice/api/oauth/interactions/${uid}/approve`, {
      method: 'POST',
      headers: { cookie: `${this.admin.cookie}; ${cookies(browser)}`, 'x-csrf-token': this.admin.csrf },
    });
    await expectStatus(approved, [200], 'approval');
    const { redirect_to } = (await approved.json()) as { redirect_to: string };
    const back = new URL(await browse(redirect_to, 'resumed authorization'));
    const code = back.searchParams.get('code');
    if (!code || back.searchParams.get('state') !== state)
      throw new Error(`bench OAuth: the app got ${back.search}, not a code and its state`);
    return { code, verifier };
  }

  /** The token request for a code: the response unread, for timing. */
  exchange(code: string, verifier: string): Promise<Response> {
    return fetch(this.local(this.metadata.token_endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: this.clientId,
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      }).toString(),
    });
  }

  /** A whole flow for `resource`: the token response. */
  async tokens(resource: string): Promise<Tokens> {
    const { code, verifier } = await this.authorize(resource);
    return (await (await expectStatus(await this.exchange(code, verifier), [200], 'token')).json()) as Tokens;
  }
}
