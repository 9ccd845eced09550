import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema.ts';
import { OPS_LEAD, startProvider, type TestProvider } from '../support/oidc-kit.ts';
import { expectAccessible, openContext, shot } from './browser-kit.ts';
import { ADMIN, browser, page, server, useBackOffice } from './backoffice-story.ts';

/**
 * Single sign-on as a person sees it, in Chromium against a real provider (oidc-provider with its
 * development login): a System Administrator sets it up and tests the connection, then someone
 * signs in through the provider and lands on the key page with the roles the provider's groups map to.
 */
describe('single sign-on in Chromium', { timeout: 120_000 }, () => {
  useBackOffice({ signedIn: true, clock: 'real', config: { ssoAllowPrivate: true } });
  let provider: TestProvider;
  let slug: string;

  beforeAll(async () => {
    provider = await startProvider(`${server.url}/backoffice/sso/callback`);
    provider.accounts.set(OPS_LEAD.sub, OPS_LEAD);
    provider.accounts.set('outsider', { sub: 'outsider', email: 'someone@elsewhere.test', email_verified: true });
    slug = (await server.services.accounts.users.requireByEmail(ADMIN.email)).tenant.slug;
  });
  afterAll(async () => provider?.close());

  it('lets a System Administrator set up the provider and test the connection', async () => {
    await page.goto('/backoffice/settings/security');
    const section = page.getByRole('region', { name: 'Single sign-on' });
    await section.getByLabel('Issuer').fill(provider.issuer);
    await section.getByLabel('Client ID').fill(provider.clientId);
    await section.getByLabel('Client secret').fill(provider.clientSecret);
    await section.getByLabel('Allowed e-mail domains').fill('demo-air.test');
    await section.getByLabel('Role claim').fill('groups');
    await section.getByLabel('Role map').fill('airkey-admins: system_administrator');
    await section.getByLabel('Create users who sign in for the first time').check();
    await section.getByRole('button', { name: 'Test the connection' }).click();
    await section.getByText(`Found ${provider.issuer}`).waitFor();
    const saved = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().endsWith('/sign-in-settings'),
    );
    await section.getByRole('button', { name: 'Save single sign-on' }).click();
    expect((await saved).status()).toBe(200);
    await expectAccessible(page, 'Security page with the single sign-on section');
    await shot(page, 'sso-settings-1280');
  });

  it('signs someone in through the provider, with the mapped roles, onto a usable key page', async () => {
    const { page: fresh, context } = await openContext(browser, server.url);
    try {
      await fresh.goto('/backoffice/login');
      await fresh.getByRole('button', { name: 'Sign in with SSO' }).click();
      await fresh.getByLabel('Organisation or work e-mail').fill(slug);
      await shot(fresh, 'sso-sign-in-1280');
      await fresh.getByRole('button', { name: 'Continue to your organisation' }).click();
      // The provider's own login page (oidc-provider's development login: any account, no password check).
      await fresh.locator('input[name="login"]').waitFor();
      expect(fresh.url().startsWith(provider.issuer)).toBe(true);
      await shot(fresh, 'sso-provider-login-1280');
      await fresh.locator('input[name="login"]').fill('ops-lead');
      await fresh.locator('input[name="password"]').fill('anything');
      await fresh.getByRole('button', { name: 'Sign-in' }).click();
      await fresh.waitForURL('**/backoffice/settings/api-keys');
      await fresh.getByRole('button', { name: 'Create API key' }).waitFor();
      const me: unknown = await fresh.evaluate(async () => (await fetch('/backoffice/api/session')).text());
      expect(JSON.parse(me as string)).toMatchObject({
        user: { email: 'lead@demo-air.test', roles: ['system_administrator'] },
      });
      await shot(fresh, 'sso-signed-in-1280');

      // An hour later a key is a sensitive change: the provider, not a password, confirms it is them.
      const lead = await server.services.accounts.users.requireByEmail('lead@demo-air.test');
      await server.services.database.db
        .update(sessions)
        .set({ authenticatedAt: new Date(Date.now() - 3_600_000) })
        .where(eq(sessions.userId, lead.id));
      await fresh.getByRole('button', { name: 'Create API key' }).click();
      const create = fresh.getByRole('dialog', { name: 'Create API key' });
      await create.getByLabel('Name').fill('Confirmed at the provider');
      await create.getByRole('button', { name: 'Create', exact: true }).click();
      const confirm = fresh.getByRole('dialog', { name: 'Confirm it is you' });
      await confirm.getByText('You signed in through your organisation').waitFor();
      expect(await confirm.getByLabel('Your password').count()).toBe(0);
      await expectAccessible(fresh, 're-authentication dialog of a single sign-on session');
      await confirm.getByRole('link', { name: 'Confirm with your organisation' }).click();
      // max_age=0: the provider asks again even though its own session is fresh.
      await fresh.locator('input[name="login"]').waitFor();
      await fresh.locator('input[name="login"]').fill('ops-lead');
      await fresh.locator('input[name="password"]').fill('anything');
      await fresh.getByRole('button', { name: 'Sign-in' }).click();
      await fresh.waitForURL('**/backoffice/settings/api-keys');
      await fresh.getByRole('button', { name: 'Create API key' }).click();
      await create.getByLabel('Name').fill('Confirmed at the provider');
      await create.getByRole('button', { name: 'Create', exact: true }).click();
      await fresh.getByRole('dialog', { name: 'Your new API key' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('returns a refused person to the sign-in page with the reason in words', async () => {
    const { page: fresh, context } = await openContext(browser, server.url);
    try {
      await fresh.goto(`/backoffice/sso/${slug}/start`);
      await fresh.locator('input[name="login"]').fill('outsider');
      await fresh.locator('input[name="password"]').fill('anything');
      await fresh.getByRole('button', { name: 'Sign-in' }).click();
      await fresh.waitForURL('**/backoffice/login?reason=sso_domain_not_allowed');
      await fresh.getByText('Your e-mail domain may not sign in to this organisation.').waitFor();
      await expectAccessible(fresh, 'sign-in page after a refused single sign-on');
      await shot(fresh, 'sso-refused-1280');
    } finally {
      await context.close();
    }
  });
});
