import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';

/** The authorization server's metadata (docs/oauth.md, Discovery): RFC 8414 and OpenID discovery. */
describe('the authorization server metadata', () => {
  const h = useHarness();
  const issuer = () => `${h.config.publicUrl}/oauth`;

  it('is served at the RFC 8414 URL with the issuer path inserted, issuer equal to that issuer', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server/oauth' });
    expect(response.statusCode).toBe(200);
    const metadata = response.json<Record<string, unknown>>();
    expect(metadata).toMatchObject({
      issuer: issuer(),
      authorization_endpoint: `${issuer()}/auth`,
      token_endpoint: `${issuer()}/token`,
      registration_endpoint: `${issuer()}/reg`,
      revocation_endpoint: `${issuer()}/token/revocation`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect([...(metadata.grant_types_supported as string[])].sort()).toEqual(['authorization_code', 'refresh_token']);
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
  });

  it('is the same document at OpenID discovery under the issuer', async () => {
    const [rfc8414, openid] = await Promise.all([
      h.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server/oauth' }),
      h.app.inject({ method: 'GET', url: '/oauth/.well-known/openid-configuration' }),
    ]);
    expect(openid.statusCode).toBe(200);
    expect(openid.json()).toEqual(rfc8414.json());
  });

  it('uses the issuer origin whatever Host the request names', async () => {
    const response = await h.app.inject({
      method: 'GET',
      url: '/.well-known/oauth-authorization-server/oauth',
      headers: { host: 'attacker.example' },
    });
    expect(response.json<{ token_endpoint: string }>().token_endpoint).toBe(`${issuer()}/token`);
  });

  it('answers an OAuth error in its own JSON shape, not as problem details', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&code=nothing&client_id=nobody',
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe('invalid_client');
  });
});
