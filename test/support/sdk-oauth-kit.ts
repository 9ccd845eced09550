import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { Harness, Session } from './harness.ts';
import { clientAddress } from './instances.ts';
import { OAuthClient, REDIRECT_URI } from './oauth-kit.ts';
import { passwordStep, secondFactorStep, totpCode } from './second-factors.ts';
import { cookieFrom } from './second-factors.ts';

/**
 * What a host keeps for the MCP SDK's OAuth client (its OAuthClientProvider), in memory: the
 * registered client (or its metadata document's URL), the tokens, the PKCE verifier, and the authorization URL it was sent to.
 */
export class HostAuth implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  authorizationUrl: URL | undefined;
  private verifier = '';
  // Kept so the SDK checks the callback against the issuer it was sent to (SEP-2352).
  private discovery: OAuthDiscoveryState | undefined;
  readonly redirectUrl = REDIRECT_URI;
  /** Set: the SDK uses this document's URL as its client_id where the issuer supports it, no registration. */
  readonly clientMetadataUrl: string | undefined;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'SDK host',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: StoredOAuthClientInformation) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  constructor(clientMetadataUrl?: string) {
    this.clientMetadataUrl = clientMetadataUrl;
  }
}

/** Signs `email` in with password and authenticator code, as the sign-in page does: a session. */
export async function signInWithTotp(h: Harness, email: string, password: string, secret: string): Promise<Session> {
  const pending = await passwordStep(h, email, password);
  const done = await secondFactorStep(h, pending, { method: 'totp', code: totpCode(secret, h.clock.nowMs()) });
  if (done.statusCode !== 200) throw new Error(`second factor refused: ${done.statusCode} ${done.body}`);
  const cookie = cookieFrom(done, 'airkey_session')!;
  const body = done.json<{ csrf_token: string; user: { id: string; tenant: { id: string } } }>();
  return {
    email,
    userId: body.user.id,
    tenantId: body.user.tenant.id,
    cookie,
    csrf: body.csrf_token,
    request: (method, url, payload, headers = {}) =>
      h.app.inject({
        method,
        url,
        headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': body.csrf_token }), ...headers },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
  };
}

/**
 * The person's browser: follows the authorization URL the SDK was sent to, approves on the consent
 * page's endpoint, and returns the callback URL the provider redirects to (code, state, iss).
 */
export async function approveInBrowser(h: Harness, person: Session, authorizationUrl: URL): Promise<URL> {
  const browser = new OAuthClient(h);
  const started = await browser.browse(authorizationUrl.toString());
  if (started.statusCode !== 303) throw new Error(`authorization: ${started.statusCode} ${started.body}`);
  const uid = /\/backoffice\/oauth\/([^/?]+)/.exec(started.headers.location!)![1]!;
  // With the binding cookie the provider set on this browser, as a real browser sends it.
  const answered = await browser.asPerson(person, 'POST', `/backoffice/api/oauth/interactions/${uid}/approve`);
  if (answered.statusCode !== 200) throw new Error(`approval: ${answered.statusCode} ${answered.body}`);
  const resumed = await browser.browse(answered.json<{ redirect_to: string }>().redirect_to);
  return new URL(resumed.headers.location!);
}

/** A person signed in to a real `airkey serve` process: the session cookie and the CSRF token. */
export type HttpSession = { cookie: string; csrf: string };

/** Password then authenticator code against the process at `url`, as the sign-in page does. */
export async function signInWithTotpOver(url: string, email: string, password: string, code: string) {
  const client = clientAddress();
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const first = await post('/backoffice/api/session', { email, password });
  const pending = cookieNamed(first, 'airkey_pending');
  if (first.status !== 200 || !pending) throw new Error(`password step: ${first.status} ${await first.text()}`);
  const done = await post('/backoffice/api/session/second-factor', { method: 'totp', code }, pending);
  const cookie = cookieNamed(done, 'airkey_session');
  if (done.status !== 200 || !cookie) throw new Error(`second factor refused: ${done.status} ${await done.text()}`);
  return { cookie, csrf: ((await done.json()) as { csrf_token: string }).csrf_token } satisfies HttpSession;
}

/**
 * The person's browser against a real process: follows the authorization URL, approves on the
 * consent page's endpoint, and returns the callback URL the provider redirects to (code, state, iss).
 */
export async function approveOver(person: HttpSession, authorizationUrl: URL): Promise<URL> {
  const jar = new Map<string, string>();
  const keep = (pair: string) => jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  keep(person.cookie);
  const browse = async (url: string, init: RequestInit = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(url, authorizationUrl), {
      ...init,
      redirect: 'manual',
      headers: { cookie, ...(init.headers as Record<string, string>) },
    });
    for (const set of response.headers.getSetCookie()) keep(set.split(';', 1)[0]!);
    return response;
  };
  const started = await browse(authorizationUrl.href);
  if (started.status !== 303) throw new Error(`authorization: ${started.status} ${await started.text()}`);
  const uid = /\/backoffice\/oauth\/([^/?]+)/.exec(started.headers.get('location')!)![1]!;
  const answered = await browse(`/backoffice/api/oauth/interactions/${uid}/approve`, {
    method: 'POST',
    headers: { 'x-csrf-token': person.csrf },
  });
  if (answered.status !== 200) throw new Error(`approval: ${answered.status} ${await answered.text()}`);
  const resumed = await browse(((await answered.json()) as { redirect_to: string }).redirect_to);
  return new URL(resumed.headers.get('location')!);
}

function cookieNamed(response: Response, name: string): string | undefined {
  return response.headers
    .getSetCookie()
    .find((set) => set.startsWith(`${name}=`))
    ?.split(';', 1)[0];
}
