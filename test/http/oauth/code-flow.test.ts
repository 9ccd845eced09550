import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { oauthRecords } from '../../../src/db/oauth-tables.ts';
import { useHarness } from '../../support/use.ts';
import { OAuthClient, approvedTokens, pkce } from '../../support/oauth-kit.ts';

/** The authorization-code flow end to end (docs/oauth.md): register, consent, token, refresh, revoke. */
describe('an app connected through the authorization-code flow', () => {
  const h = useHarness({ now: new Date() });
  const issuer = () => `${h.config.publicUrl}/oauth`;

  it('gets a code with state and iss after approval, then a 15-minute token and a refresh token', async () => {
    const person = await h.signedIn();
    const client = new OAuthClient(h);
    expect((await client.register()).statusCode).toBe(201);
    const { verifier, challenge } = pkce();
    const back = await client.consent(person, 'approve', { code_challenge: challenge, code_challenge_method: 'S256' });
    expect(`${back.origin}${back.pathname}`).toBe(client.redirectUri);
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(back.searchParams.get('iss')).toBe(issuer());
    const code = back.searchParams.get('code')!;
    const tokens = await client.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const body = tokens.json<{ access_token: string; refresh_token: string; expires_in: number; token_type: string }>();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(body.refresh_token).toEqual(expect.any(String));
    // A code is good once.
    const again = await client.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    });
    expect(again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('stores tokens only as digests', async () => {
    const client = new OAuthClient(h);
    await client.register();
    const tokens = await approvedTokens(client, await h.signedIn());
    const rows = await h.services.database.db.select().from(oauthRecords);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(tokens.access_token);
    expect(text).not.toContain(tokens.refresh_token);
    const digest = createHash('sha256').update(tokens.access_token).digest('hex');
    expect(rows.some((row) => row.idDigest === digest)).toBe(true);
  });

  it('rotates the refresh token, and a replayed one revokes the whole grant', async () => {
    const client = new OAuthClient(h);
    await client.register();
    const first = await approvedTokens(client, await h.signedIn());
    const rotated = await client.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const second = rotated.json<{ refresh_token: string; access_token: string }>();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const replayed = await client.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toMatchObject({ error: 'invalid_grant' });
    // The grant is gone: the newer refresh token dies with it.
    const after = await client.token({ grant_type: 'refresh_token', refresh_token: second.refresh_token });
    expect(after.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes a refresh token at the revocation endpoint (RFC 7009)', async () => {
    const client = new OAuthClient(h);
    await client.register();
    const tokens = await approvedTokens(client, await h.signedIn());
    const revoked = await client.post('/oauth/token/revocation', {
      client_id: client.clientId,
      token: tokens.refresh_token,
    });
    expect(revoked.statusCode).toBe(200);
    const refreshed = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('returns access_denied with iss when the person denies', async () => {
    const client = new OAuthClient(h);
    await client.register();
    const { challenge } = pkce();
    const back = await client.consent(await h.signedIn(), 'deny', {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('iss')).toBe(issuer());
    expect(back.searchParams.get('code')).toBeNull();
  });
});
