import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthRecords } from '../../../src/db/oauth-tables.ts';
import { OAuthClient, approvedTokens, pkce, uidOf } from '../../support/oauth-kit.ts';
import { useHarness } from '../../support/use.ts';

const DAY = 86_400_000;

/** How long grants and registered clients last, who may answer a consent, and what is audited. */
describe('OAuth grants over time', () => {
  const h = useHarness({ now: new Date(), config: { oauthGrantDays: 30 } });
  const db = () => h.services.database.db;

  const grantRow = async (clientId: string) => {
    const rows = await db().select().from(oauthRecords).where(eq(oauthRecords.kind, 'Grant'));
    return rows.find((row) => row.payload.clientId === clientId);
  };

  it('keeps a grant OAUTH_GRANT_DAYS after its last use: each refresh pushes the end on', async () => {
    const client = new OAuthClient(h);
    await client.register();
    let tokens = await approvedTokens(client, await h.signedIn());
    // Used every 20 days, it outlives 30 days from approval.
    for (let round = 0; round < 3; round++) {
      h.clock.advance(20 * DAY);
      const refreshed = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      tokens = refreshed.json();
    }
    const row = await grantRow(client.clientId);
    expect(row?.lastUsedAt?.getTime()).toBe(h.clock.nowMs());
    expect(row?.expiresAt?.getTime()).toBe(h.clock.nowMs() + 30 * DAY);
    // Unused past that, the sweep removes it with its refresh token (and the idle client too).
    h.clock.advance(30 * DAY + 1000);
    await h.services.oauth.deleteExpired();
    expect(await grantRow(client.clientId)).toBeUndefined();
    const left = await db().select().from(oauthRecords).where(eq(oauthRecords.grantId, row!.grantId!));
    expect(left).toEqual([]);
  });

  it('removes a registered client 30 days after its last use', async () => {
    const used = new OAuthClient(h);
    await used.register();
    const idle = new OAuthClient(h);
    await idle.register();
    h.clock.advance(25 * DAY);
    await approvedTokens(used, await h.signedIn());
    h.clock.advance(6 * DAY);
    await h.services.oauth.deleteExpired();
    expect((await idle.authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' })).statusCode).toBe(
      400,
    );
    expect((await used.authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' })).statusCode).toBe(
      303,
    );
  });

  it('refuses to let a person approve a request started in another browser', async () => {
    // The attacker starts an authorization for their own app and sends the consent link on.
    const attacker = new OAuthClient(h);
    await attacker.register({ client_name: 'Innocent looking app' });
    const started = await attacker.authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const uid = uidOf(started);
    const victim = await h.signedIn();
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/approve'],
      ['POST', '/deny'],
    ] as const) {
      const response = await victim.request(method, `/backoffice/api/oauth/interactions/${uid}${path}`);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    // Another request's binding does not open this one either.
    const other = new OAuthClient(h);
    other.clientId = attacker.clientId;
    await other.authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    expect((await other.asPerson(victim, 'POST', `/backoffice/api/oauth/interactions/${uid}/approve`)).statusCode).toBe(
      404,
    );
    // The attacker's browser, resuming, gets no code.
    const resumed = await attacker.browse(`/oauth/auth/${uid}`);
    expect(resumed.headers.location ?? '').not.toContain('code=');
    expect(await grantRow(attacker.clientId)).toBeUndefined();
  });

  it('audits a replayed refresh token’s revocation in the tenant of the person it acted as', async () => {
    const client = new OAuthClient(h);
    await client.register({ client_name: 'Registered app' });
    const person = await h.signedIn();
    const first = await approvedTokens(client, person);
    await client.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    const replayed = await client.token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(replayed.json()).toMatchObject({ error: 'invalid_grant' });
    const trail = await person.request('GET', '/backoffice/api/audit-events');
    const events = trail.json<{ data: Array<{ action: string; actor: { type: string }; detail: object }> }>().data;
    expect(events[0]).toMatchObject({
      action: 'oauth.grant_revoked',
      actor: { type: 'system' },
      detail: { by: 'refresh_token_replay', user: { id: person.userId } },
    });
  });
});
