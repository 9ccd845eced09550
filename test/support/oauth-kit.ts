import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { BINDING_COOKIE } from '../../src/oauth/interaction-binding.ts';
import type { Harness, Session } from './harness.ts';

export const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

/** PKCE (RFC 7636): a verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * A scripted OAuth client and the browser it sends its person through, over `app.inject`: the
 * provider's cookies are kept per name, and absolute URLs of this server become paths.
 */
export class OAuthClient {
  readonly cookies = new Map<string, string>();
  clientId = '';
  private readonly h: Harness;
  readonly redirectUri: string;
  constructor(h: Harness, redirectUri = REDIRECT_URI) {
    this.h = h;
    this.redirectUri = redirectUri;
  }

  path(url: string): string {
    return url.startsWith(this.h.config.publicUrl) ? url.slice(this.h.config.publicUrl.length) : url;
  }

  async browse(url: string): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.h.app.inject({ method: 'GET', url: this.path(url), headers: cookie ? { cookie } : {} });
    for (const set of response.cookies) this.cookies.set(set.name, set.value);
    return response;
  }

  async register(metadata: Record<string, unknown> = {}): Promise<LightMyRequestResponse> {
    const response = await this.h.app.inject({
      method: 'POST',
      url: '/oauth/reg',
      payload: {
        redirect_uris: [this.redirectUri],
        client_name: 'Scripted app',
        token_endpoint_auth_method: 'none',
        ...metadata,
      },
    });
    if (response.statusCode === 201) this.clientId = response.json<{ client_id: string }>().client_id;
    return response;
  }

  /** The authorization request; returns the provider's answer (a redirect to consent, or an error). */
  authorize(params: Record<string, string | undefined>): Promise<LightMyRequestResponse> {
    const query = new URLSearchParams({
      client_id: this.clientId,
      response_type: 'code',
      redirect_uri: this.redirectUri,
      state: 'st-1',
    });
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined) query.delete(name);
      else query.set(name, value);
    }
    return this.browse(`/oauth/auth?${query}`);
  }

  /** Authorization, consent by `person` (approve or deny), and the redirect back: the app's callback URL. */
  async consent(person: Session, answer: 'approve' | 'deny', params: Record<string, string | undefined>): Promise<URL> {
    const started = await this.authorize(params);
    expect(started.statusCode, started.body).toBe(303);
    const uid = uidOf(started);
    const answered = await this.asPerson(person, 'POST', `/backoffice/api/oauth/interactions/${uid}/${answer}`);
    expect(answered.statusCode, answered.body).toBe(200);
    const resumed = await this.browse(answered.json<{ redirect_to: string }>().redirect_to);
    expect([302, 303]).toContain(resumed.statusCode);
    return new URL(resumed.headers.location!);
  }

  /**
   * A consent request by `person` from this browser: with the binding cookie the provider set when
   * this client's authorization request started (a real browser holds both).
   */
  asPerson(person: Session, method: 'GET' | 'POST', url: string): Promise<LightMyRequestResponse> {
    const binding = this.cookies.get(BINDING_COOKIE);
    return person.request(method, url, undefined, {
      cookie: binding ? `${person.cookie}; ${BINDING_COOKIE}=${binding}` : person.cookie,
    });
  }

  token(form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.post('/oauth/token', { client_id: this.clientId, ...form });
  }

  post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.h.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  }
}

/** The interaction uid in the provider's redirect to the consent page. */
export function uidOf(started: LightMyRequestResponse): string {
  return /\/backoffice\/oauth\/([^/?]+)/.exec(started.headers.location!)![1]!;
}

/** A full approval: the code exchanged; resolves with the token response's body. */
export async function approvedTokens(client: OAuthClient, person: Session, resource?: string) {
  const { verifier, challenge } = pkce();
  const back = await client.consent(person, 'approve', {
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
  });
  const response = await client.token({
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{
    access_token: string;
    refresh_token: string;
    expires_in: number;
    token_type: string;
    scope?: string;
  }>();
}
