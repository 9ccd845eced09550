import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { OAuthClient, pkce } from '../../support/oauth-kit.ts';

/** What the authorization endpoint and registration refuse (docs/oauth.md, Refusals). */
describe('the authorization server refuses', () => {
  const h = useHarness({ now: new Date() });
  const issuer = () => `${h.config.publicUrl}/oauth`;

  async function registered(): Promise<OAuthClient> {
    const client = new OAuthClient(h);
    expect((await client.register()).statusCode).toBe(201);
    return client;
  }

  /** An error sent back to the app: a redirect to its URI with `error` and `iss` (RFC 9207). */
  function expectRedirectedError(response: { statusCode: number; headers: Record<string, unknown> }, error: string) {
    expect([302, 303]).toContain(response.statusCode);
    const back = new URL(String(response.headers.location));
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('iss')).toBe(issuer());
    expect(back.searchParams.get('state')).toBe('st-1');
  }

  it('a plain PKCE challenge', async () => {
    const client = await registered();
    const response = await client.authorize({ code_challenge: pkce().verifier, code_challenge_method: 'plain' });
    expectRedirectedError(response, 'invalid_request');
  });

  it('a missing PKCE challenge', async () => {
    const client = await registered();
    expectRedirectedError(await client.authorize({}), 'invalid_request');
  });

  it('a redirect URI the client did not register, without redirecting to it', async () => {
    const client = await registered();
    const response = await client.authorize({
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      redirect_uri: 'https://elsewhere.example/callback',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('a resource that is neither the MCP server nor the API (invalid_target)', async () => {
    const client = await registered();
    const response = await client.authorize({
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: 'https://other.example/mcp',
    });
    expectRedirectedError(response, 'invalid_target');
  });

  it('a token for a resource the grant was not approved for', async () => {
    const client = await registered();
    const { verifier, challenge } = pkce();
    const back = await client.consent(await h.signedIn(), 'approve', {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const response = await client.token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      resource: `${h.config.publicUrl}/api/v1`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_target' });
  });

  it.each([
    ['http: to a host that is not loopback', 'http://app.example/callback'],
    ['a script scheme', 'javascript:alert(1)'],
    ['a fragment', 'https://app.example/callback#x'],
  ])('a registration whose redirect URI uses %s', async (_what, uri) => {
    const response = await new OAuthClient(h, uri).register();
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: expect.stringMatching(/^invalid_(redirect_uri|client_metadata)$/) as string,
    });
  });

  it.each([
    ['https:', 'https://app.example/callback'],
    ['loopback http:', 'http://localhost:53682/callback'],
    ['a private-use scheme', 'com.example.app:/oauth/callback'],
  ])('nothing about a registration whose redirect URI is %s', async (_what, uri) => {
    expect((await new OAuthClient(h, uri).register()).statusCode).toBe(201);
  });
});
