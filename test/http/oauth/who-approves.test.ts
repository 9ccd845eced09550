import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { OAuthClient, pkce } from '../../support/oauth-kit.ts';
import type { Session } from '../../support/harness.ts';

/** The tenant's `oauth_apps` setting decides who may approve an app (docs/oauth.md). */
describe('who may approve an app', () => {
  const h = useHarness({ now: new Date() });

  async function answer(person: Session): Promise<URL> {
    const client = new OAuthClient(h);
    await client.register();
    return client.consent(person, 'approve', { code_challenge: pkce().challenge, code_challenge_method: 'S256' });
  }

  async function setting(admin: Session, value: string) {
    const response = await admin.request('PATCH', '/backoffice/api/sign-in-settings', { oauth_apps: value });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ oauth_apps: value });
  }

  it('refuses everyone with access_denied when the setting is off', async () => {
    const admin = await h.signedIn();
    await setting(admin, 'off');
    const back = await answer(admin);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    const audit = await admin.request('GET', '/backoffice/api/audit-events');
    const events = audit.json<{ data: Array<{ action: string; detail: { reason?: string } }> }>().data;
    expect(events.find((event) => event.action === 'oauth.app_denied')?.detail.reason).toBe('not_allowed');
  });

  it('refuses a person who may not create keys under key_managers, the default', async () => {
    const admin = await h.signedIn();
    const operator = await h.signIn((await h.user(admin.tenantId, ['operations'])).email);
    const client = new OAuthClient(h);
    await client.register();
    const started = await client.authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const uid = /\/backoffice\/oauth\/([^/?]+)/.exec(started.headers.location!)![1]!;
    const view = await client.asPerson(operator, 'GET', `/backoffice/api/oauth/interactions/${uid}`);
    expect(view.json()).toMatchObject({ may_approve: false, app: { name: 'Scripted app' } });
    const back = await answer(operator);
    expect(back.searchParams.get('error')).toBe('access_denied');
  });

  it('lets that person approve once the setting is everyone', async () => {
    const admin = await h.signedIn();
    await setting(admin, 'everyone');
    const operator = await h.signIn((await h.user(admin.tenantId, ['operations'])).email);
    const back = await answer(operator);
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('lets a key manager approve under key_managers, audited', async () => {
    const admin = await h.signedIn();
    const back = await answer(admin);
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    const audit = await admin.request('GET', '/backoffice/api/audit-events');
    expect(audit.json<{ data: Array<{ action: string }> }>().data.map((event) => event.action)).toContain(
      'oauth.app_approved',
    );
  });

  it('shows the consent page the app, the organisation, the resource and a loopback warning', async () => {
    const admin = await h.signedIn();
    const client = new OAuthClient(h);
    await client.register();
    const started = await client.authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const uid = /\/backoffice\/oauth\/([^/?]+)/.exec(started.headers.location!)![1]!;
    const view = await client.asPerson(admin, 'GET', `/backoffice/api/oauth/interactions/${uid}`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      app: { client_id: client.clientId, name: 'Scripted app', by_document: false },
      redirect_host: '127.0.0.1:7777',
      warnings: ['loopback_only'],
      organisation: { id: admin.tenantId },
      resource: `${h.config.publicUrl}/mcp`,
      resource_name: 'MCP server',
      may_approve: true,
    });
  });

  it('sends a person who is not signed in to the sign-in page, with next back to the request', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/backoffice/oauth/some-uid' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(
      `/backoffice/login?next=${encodeURIComponent('/backoffice/oauth/some-uid')}`,
    );
  });
});
