import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Config } from '../../src/config.ts';
import { tenants } from '../../src/db/schema.ts';
import { freePort } from '../support/free-port.ts';
import {
  connectingApp,
  DESKTOP,
  expectAccessible,
  PHONE,
  shot,
  signIn,
  useVirtualAuthenticator,
  type OAuthApp,
} from './browser-kit.ts';
import { ADMIN, adminActor, clock, page, problems, server, useBackOffice } from './backoffice-story.ts';

let app: OAuthApp;
let totpSecret = '';
let approvedRefreshToken = '';

const codeNow = () =>
  new TOTP({ secret: Secret.fromBase32(totpSecret), digits: 6, period: 30 }).generate({ timestamp: clock.nowMs() });

/** Tab (as a keyboard-only person would) until `name` has the focus, then press Enter. */
async function pressByKeyboard(p: Page, name: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await p.keyboard.press('Tab');
    const focused = await p.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === name) return p.keyboard.press('Enter');
  }
  throw new Error(`${name} never took the focus`);
}

async function consentAtBothWidths(p: Page, label: string, screenshots: boolean): Promise<void> {
  await p.getByRole('heading', { name: 'Browser test app wants to connect' }).waitFor();
  await p.getByText(new URL(app.callback).host).waitFor();
  await expectAccessible(p, `consent page (${label}) at 1280 px`);
  if (screenshots) await shot(p, 'oauth-consent-1280');
  await p.setViewportSize(PHONE);
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectAccessible(p, `consent page (${label}) at 390 px`);
  if (screenshots) await shot(p, 'oauth-consent-390');
  await p.setViewportSize(DESKTOP);
}

/**
 * The consent page in Chromium (docs/oauth.md): an app's request after a password and
 * authenticator-app sign-in, and after a passkey sign-in; approve and deny by keyboard; then
 * Connected apps lists the grant and revokes it.
 */
describe('back office in Chromium: connecting an app with OAuth', () => {
  const config: Partial<Config> = {};
  beforeAll(async () => {
    // The issuer's URLs must be the ones the browser uses (localhost, for passkeys).
    const port = await freePort();
    Object.assign(config, { port, publicUrl: `http://localhost:${port}` });
  });
  useBackOffice({ host: 'localhost', config });
  afterAll(() => app?.close());

  beforeAll(async () => {
    const actor = await adminActor();
    totpSecret = (await server.services.signIn.secondFactors.beginTotp(actor)).secret;
    await server.services.signIn.secondFactors.confirmTotp(actor, codeNow());
    clock.advance(30_000);
    app = await connectingApp(server.url, 'Browser test app');
  }, 60_000);

  it('signs in with password and code, shows the consent page, and approving returns a code with iss', async () => {
    const { url, verifier } = app.authorization();
    await page.goto(url);
    await page.waitForURL('**/backoffice/login?next=**');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('Code from your authenticator app').fill(codeNow());
    await page.getByRole('button', { name: 'Verify' }).click();
    await consentAtBothWidths(page, 'after password and code', true);
    await pressByKeyboard(page, 'Approve');
    const back = await app.backAt(page);
    expect(back.searchParams.get('iss')).toBe(`${config.publicUrl}/oauth`);
    expect(back.searchParams.get('state')).toBe('st-browser');
    const code = back.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    const token = await app.exchange(code!, verifier);
    expect(token.status).toBe(200);
    approvedRefreshToken = ((await token.json()) as { refresh_token: string }).refresh_token;
    expect(problems).toEqual([]);
  });

  it('denying by keyboard returns access_denied with iss', async () => {
    await page.goto(app.authorization().url);
    await page.getByRole('heading', { name: 'Browser test app wants to connect' }).waitFor();
    await pressByKeyboard(page, 'Deny');
    const back = await app.backAt(page);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('iss')).toBe(`${config.publicUrl}/oauth`);
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('lists the app under Connected apps, and Revoke ends it', async () => {
    await page.goto('/backoffice/settings/security');
    const section = page.getByRole('region', { name: 'Connected apps' });
    await section.getByText('Browser test app').waitFor();
    await section.getByText('MCP server').first().waitFor();
    await expectAccessible(page, 'Security page with a connected app');
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'connected-apps-1280');
    await page.setViewportSize(PHONE);
    await section.getByText('Browser test app').waitFor();
    await expectAccessible(page, 'Connected apps at 390 px');
    await shot(page, 'connected-apps-390');
    await page.setViewportSize(DESKTOP);

    await section.getByRole('button', { name: 'Revoke Browser test app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this app?' });
    await dialog.getByRole('button', { name: 'Revoke app' }).click();
    await section.getByText('You have not connected any app.').waitFor();
    // The grant is gone with its tokens: the refresh token is refused.
    const refreshed = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: app.clientId,
        refresh_token: approvedRefreshToken,
      }),
    });
    expect(((await refreshed.json()) as { error?: string }).error).toBe('invalid_grant');
    expect(problems).toEqual([]);
  });

  it('after a passkey sign-in, shows the consent page and approving returns a code', async () => {
    await useVirtualAuthenticator(page);
    await page.getByLabel('Name of the new passkey').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('list', { name: 'Your passkeys' }).getByText('Work laptop').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');

    await page.goto(app.authorization().url);
    await page.waitForURL('**/backoffice/login?next=**');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await consentAtBothWidths(page, 'after a passkey', false);
    await pressByKeyboard(page, 'Approve');
    const back = await app.backAt(page);
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    expect(back.searchParams.get('iss')).toBe(`${config.publicUrl}/oauth`);
    expect(problems).toEqual([]);
  });

  it('shows a System Administrator the organisation’s connected apps beside the keys', async () => {
    await page.goto('/backoffice/settings/api-keys');
    await page.getByRole('tab', { name: 'Connected apps' }).click();
    const section = page.getByRole('region', { name: 'Connected apps in the organisation' });
    await section.getByRole('cell', { name: ADMIN.email, exact: true }).waitFor();
    await section.getByRole('button', { name: `Revoke Browser test app for ${ADMIN.email}` }).waitFor();
    await expectAccessible(page, 'the organisation’s connected apps');
    expect(problems).toEqual([]);
  });

  it('lets a System Administrator choose on the Security page who may connect apps', async () => {
    await page.goto('/backoffice/settings/security');
    const choices = page.getByRole('radiogroup', { name: /Who may connect apps/ });
    await choices.getByRole('radio', { name: 'Everyone' }).check();
    await page.getByRole('button', { name: 'Save sign-in settings' }).click();
    await page.getByText('Sign-in settings saved').waitFor();
    const { tenantId } = await server.services.accounts.users.requireByEmail(ADMIN.email);
    const [tenant] = await server.services.database.db
      .select({ oauthApps: tenants.oauthApps })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    expect(tenant?.oauthApps).toBe('everyone');
    expect(problems).toEqual([]);
  });
});
