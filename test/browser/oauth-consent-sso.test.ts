import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { freePort } from '../support/free-port.ts';
import { OPS_LEAD, startProvider, type TestProvider } from '../support/oidc-kit.ts';
import { backofficeApi, connectingApp, expectAccessible, openContext, shot, type OAuthApp } from './browser-kit.ts';
import { ADMIN, browser, page, server, useBackOffice } from './backoffice-story.ts';

/**
 * The consent page in Chromium after a single sign-on (docs/oauth.md, Authorization): an app's
 * request sends a signed-out person to sign-in, they sign in through the organisation's provider
 * (a real oidc-provider), land on the consent page, and Approve returns to the app with a code.
 */
describe('back office in Chromium: connecting an app after single sign-on', { timeout: 120_000 }, () => {
  const config: Partial<Config> = { ssoAllowPrivate: true };
  beforeAll(async () => {
    // The issuer's URLs must be the ones the browser uses.
    const port = await freePort();
    Object.assign(config, { port, publicUrl: `http://127.0.0.1:${port}` });
  });
  useBackOffice({ signedIn: true, clock: 'real', config });
  let provider: TestProvider;
  let app: OAuthApp;
  let slug: string;

  beforeAll(async () => {
    provider = await startProvider(`${server.url}/backoffice/sso/callback`);
    provider.accounts.set(OPS_LEAD.sub, OPS_LEAD);
    const saved = await (
      await backofficeApi(page)
    )('PATCH', '/sign-in-settings', {
      sso: {
        issuer: provider.issuer,
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        allowed_domains: ['demo-air.test'],
        role_claim: 'groups',
        role_map: { 'airkey-admins': ['system_administrator'] },
        create_users: true,
      },
    });
    expect(saved.status).toBe(200);
    slug = (await server.services.accounts.users.requireByEmail(ADMIN.email)).tenant.slug;
    app = await connectingApp(server.url, 'SSO test app');
  });
  afterAll(async () => {
    await app?.close();
    await provider?.close();
  });

  it('signs in through the provider, shows the consent page, and Approve returns a code with iss', async () => {
    const { page: fresh, context, problems } = await openContext(browser, server.url);
    try {
      const { url, verifier } = app.authorization();
      await fresh.goto(url);
      await fresh.waitForURL('**/backoffice/login?next=**');
      await fresh.getByRole('button', { name: 'Sign in with SSO' }).click();
      await fresh.getByLabel('Organisation or work e-mail').fill(slug);
      await fresh.getByRole('button', { name: 'Continue to your organisation' }).click();
      // The provider's own login page (oidc-provider's development login: any account, no password check).
      await fresh.locator('input[name="login"]').fill('ops-lead');
      await fresh.locator('input[name="password"]').fill('anything');
      await fresh.getByRole('button', { name: 'Sign-in' }).click();

      await fresh.getByRole('heading', { name: 'SSO test app wants to connect' }).waitFor();
      await fresh.getByText(new URL(app.callback).host).waitFor();
      await expectAccessible(fresh, 'consent page after single sign-on');
      await shot(fresh, 'oauth-consent-sso-1280');
      await fresh.getByRole('button', { name: 'Approve' }).click();
      const back = await app.backAt(fresh);
      expect(back.searchParams.get('iss')).toBe(`${config.publicUrl}/oauth`);
      expect(back.searchParams.get('state')).toBe('st-browser');
      const token = await app.exchange(back.searchParams.get('code') ?? '', verifier);
      expect(token.status).toBe(200);
      expect(problems).toEqual([]);

      // The grant is the person's the provider signed in: listed under their own Connected apps.
      await fresh.goto('/backoffice/settings/security');
      await fresh.getByRole('region', { name: 'Connected apps' }).getByText('SSO test app').waitFor();
    } finally {
      await context.close();
    }
  });
});
