import { describe, expect, it } from 'vitest';
import type { KeyChange } from '../../../src/revocation/change.ts';
import type { Session } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { OAuthClient, approvedTokens } from '../../support/oauth-kit.ts';
import { useHarness } from '../../support/use.ts';

type Grant = {
  id: string;
  client_id: string;
  app_name: string;
  resource: string;
  user: { id: string; email: string };
  approved_at: string;
  last_used_at: string | null;
};

/** Connected apps (docs/oauth.md): grants listed per person or per tenant, and revoked. */
describe('connected apps', () => {
  const h = useHarness({ now: new Date(), config: { reauthMinutes: 10 } });

  async function connect(person: Session, name = 'Scripted app') {
    const client = new OAuthClient(h);
    await client.register({ client_name: name });
    const tokens = await approvedTokens(client, person);
    return { client, tokens };
  }

  const grantsOf = async (person: Session, all = false) => {
    const response = await person.request('GET', `/backoffice/api/oauth-grants${all ? '?all=1' : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: Grant[] }>().data;
  };

  it('lists a person their own grants with app, resource, person and times', async () => {
    const admin = await h.signedIn();
    const { client } = await connect(admin, 'Claude');
    const [grant, ...rest] = await grantsOf(admin);
    expect(rest).toEqual([]);
    expect(grant).toMatchObject({
      client_id: client.clientId,
      app_name: 'Claude',
      resource: `${h.config.publicUrl}/mcp`,
      user: { id: admin.userId, email: admin.email },
    });
    expect(Date.parse(grant!.approved_at)).not.toBeNaN();
    expect(Date.parse(grant!.last_used_at!)).not.toBeNaN();
  });

  it('lists the whole tenant to a key manager with ?all=1, and refuses it to anyone else', async () => {
    const admin = await h.signedIn();
    const settings = await admin.request('PATCH', '/backoffice/api/sign-in-settings', { oauth_apps: 'everyone' });
    expect(settings.statusCode, settings.body).toBe(200);
    const operator = await h.signIn((await h.user(admin.tenantId, ['operations'])).email);
    await connect(admin, 'Mine');
    await connect(operator, 'Theirs');
    expect((await grantsOf(admin, true)).map((grant) => grant.app_name).sort()).toEqual(['Mine', 'Theirs']);
    expect((await grantsOf(operator)).map((grant) => grant.app_name)).toEqual(['Theirs']);
    const refused = await operator.request('GET', '/backoffice/api/oauth-grants?all=1');
    expect(refused.statusCode).toBe(403);
    // Another tenant sees none of them.
    const stranger = await h.signedIn();
    expect(await grantsOf(stranger, true)).toEqual([]);
  });

  it('revokes one’s own grant: its tokens die, every instance is told, and it is audited', async () => {
    const admin = await h.signedIn();
    const { client, tokens } = await connect(admin);
    const [grant] = await grantsOf(admin);
    const heard: KeyChange[] = [];
    h.services.changes.onChange((change) => heard.push(change));
    const revoked = await admin.request('DELETE', `/backoffice/api/oauth-grants/${grant!.id}`);
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect(heard).toContainEqual({ type: 'grant', id: grant!.id });
    expect(await grantsOf(admin)).toEqual([]);
    const refreshed = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });
    const audit = await admin.request('GET', '/backoffice/api/audit-events');
    const event = audit.json<{ data: Array<{ action: string; actor: { id: string }; detail: object }> }>().data[0];
    expect(event).toMatchObject({
      action: 'oauth.grant_revoked',
      actor: { id: admin.userId },
      detail: { grant_id: grant!.id, by: 'person' },
    });
  });

  it('lets a key manager revoke another person’s grant, and anyone their own, but not another’s', async () => {
    const admin = await h.signedIn();
    await admin.request('PATCH', '/backoffice/api/sign-in-settings', { oauth_apps: 'everyone' });
    const operator = await h.signIn((await h.user(admin.tenantId, ['operations'])).email);
    await connect(admin, 'Admin app');
    await connect(operator, 'Operator app');
    const [adminGrant] = await grantsOf(admin);
    const [operatorGrant] = await grantsOf(operator);
    const refused = await operator.request('DELETE', `/backoffice/api/oauth-grants/${adminGrant!.id}`);
    expectProblem(refused, 403, 'permission_denied');
    expect(await grantsOf(admin)).toHaveLength(1);
    const done = await admin.request('DELETE', `/backoffice/api/oauth-grants/${operatorGrant!.id}`);
    expect(done.statusCode, done.body).toBe(204);
    expect(await grantsOf(operator)).toEqual([]);
    // A person without the permission still revokes their own.
    await connect(operator, 'Operator app again');
    const [own] = await grantsOf(operator);
    const mine = await operator.request('DELETE', `/backoffice/api/oauth-grants/${own!.id}`);
    expect(mine.statusCode, mine.body).toBe(204);
    expect(await grantsOf(operator)).toEqual([]);
  });

  it('answers 404 for another tenant’s grant and leaves it be', async () => {
    const owner = await h.signedIn();
    await connect(owner);
    const [grant] = await grantsOf(owner);
    const stranger = await h.signedIn();
    const response = await stranger.request('DELETE', `/backoffice/api/oauth-grants/${grant!.id}`);
    expectProblem(response, 404, 'not_found');
    expect(await grantsOf(owner)).toHaveLength(1);
  });

  it('asks for re-authentication once the window has passed', async () => {
    const admin = await h.signedIn();
    await connect(admin);
    const [grant] = await grantsOf(admin);
    h.clock.advance(11 * 60_000);
    const response = await admin.request('DELETE', `/backoffice/api/oauth-grants/${grant!.id}`);
    expectProblem(response, 403, 'reauthentication_required');
    expect(await grantsOf(admin)).toHaveLength(1);
  });
});
