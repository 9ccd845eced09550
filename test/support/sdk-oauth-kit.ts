import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { Harness, Session } from './harness.ts';
import { OAuthClient, REDIRECT_URI } from './oauth-kit.ts';
import { passwordStep, secondFactorStep, totpCode } from './second-factors.ts';
import { cookieFrom } from './second-factors.ts';

/**
 * What a host keeps for the MCP SDK's OAuth client (its OAuthClientProvider), in memory: the
 * registered client, the tokens, the PKCE verifier, and the authorization URL it was sent to.
 */
export class HostAuth implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  authorizationUrl: URL | undefined;
  private verifier = '';
  readonly redirectUrl = REDIRECT_URI;
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
