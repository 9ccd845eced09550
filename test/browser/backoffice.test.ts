import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { freshDataDir } from '../support/databases.ts';
import { ensureWebBuilt, expectAccessible, launchChromium, openContext, PHONE, shot, signIn, whoami } from './browser-kit.ts';

const ADMIN = { email: 'admin@demo-air.test', password: 'correct-horse-battery-staple' };
const CREW = { email: 'crew@demo-air.test', password: 'crew-member-password' };
const DAY_MS = 24 * 60 * 60 * 1000;

// One server and one signed-in admin page for the whole story; each test continues the last.
let server: RunningServer;
let browser: Browser;
let page: Page;
let problems: string[];
const clock = new ManualClock(new Date());
let secret = '';

const row = (name: string) => page.locator('tr', { has: page.getByText(name, { exact: true }) });

describe('back office in Chromium', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    const config = { ...loadConfig({}), port: 0, dataDir: freshDataDir(), adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: false };
    server = await startServer(config, { overrides: { clock } });
    browser = await launchChromium();
    ({ page, problems } = await openContext(browser, server.url));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a signed-out visitor to sign-in, explains a wrong password, and comes back to the page', async () => {
    const response = await page.goto('/backoffice/settings/api-keys');
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/backoffice/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/backoffice/settings/api-keys');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to airkey' }).isVisible()).toBe(true);
    await shot(page, 'login-1280');
    await expectAccessible(page, 'sign-in');

    await signIn(page, ADMIN.email, 'not-the-password');
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password' }).waitFor();
    await shot(page, 'login-wrong-password-1280');

    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/backoffice/settings/api-keys');
    await page.getByRole('heading', { name: 'No API keys yet' }).waitFor();
    await expect.poll(() => page.getByTestId('authority-note').textContent()).toContain('act as the user who created them');
    await shot(page, 'keys-empty-1280');
    await expectAccessible(page, 'empty key list');
  });

  it('opens and closes the create dialog with the keyboard alone', async () => {
    const create = page.getByRole('button', { name: 'Create API key' });
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-autofocus'))).not.toBeNull();
    await page.keyboard.press('Enter'); // empty name: refused before any request
    await dialog.getByText('Give the key a name.').waitFor();
    await shot(page, 'create-dialog-1280');
    await expectAccessible(page, 'create dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => create.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  it('creates a key, shows it once, copies it, and the key works against the API', async () => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('Crew roster sync');
    await expect.poll(() => dialog.getByText('16/100').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Create' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Your new API key' });
    await secretDialog.waitFor();
    secret = await secretDialog.getByTestId('new-key-secret').inputValue();
    expect(secret).toMatch(/^ask_[A-Za-z0-9]{64}$/);
    await secretDialog.getByText('it will not be shown again').waitFor();
    await expect.poll(() => secretDialog.textContent()).toContain(`-H "X-API-Key: ${secret}"`);
    await expect.poll(() => secretDialog.textContent()).toContain(`"url": "${server.url}/mcp"`);
    await shot(page, 'secret-dialog-1280');
    await expectAccessible(page, 'secret dialog');

    await secretDialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await secretDialog.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const used = await whoami(server.url, secret);
    expect(used.status).toBe(200);
    expect(used.body.key?.name).toBe('Crew roster sync');

    await secretDialog.getByRole('button', { name: 'I have saved the key' }).click();
    await secretDialog.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    await row('Crew roster sync').getByText(`ask_…${secret.slice(-4)}`).waitFor();
  });

  it('never shows the secret again after a reload', async () => {
    await page.reload();
    await row('Crew roster sync').waitFor();
    // The server has flushed the last use by now or will soon; either way the row reads sensibly.
    expect(await page.content()).not.toContain(secret);
    expect(await page.content()).not.toContain(secret.slice(4, 40));
    await shot(page, 'keys-list-1280');
    await expectAccessible(page, 'key list');
  });

  it('disables the key at once, and the API rejects it', async () => {
    const toggle = page.getByRole('switch', { name: 'Enabled: Crew roster sync' });
    expect(await toggle.isChecked()).toBe(true);
    const saved = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/api-keys/'));
    await toggle.focus();
    await page.keyboard.press('Space');
    expect((await saved).status()).toBe(200);
    expect(await toggle.isChecked()).toBe(false);
    await row('Crew roster sync').getByText('Disabled', { exact: true }).waitFor();

    const rejected = await whoami(server.url, secret);
    expect(rejected.status).toBe(401);
    expect(rejected.body.code).toBe('api_key_disabled');
    await shot(page, 'keys-disabled-1280');
  });

  it('puts the switch back and says why when the server refuses the change', async () => {
    const toggle = page.getByRole('switch', { name: 'Enabled: Crew roster sync' });
    await page.route('**/backoffice/api/api-keys/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 503,
            contentType: 'application/problem+json',
            body: JSON.stringify({ type: 'about:blank', title: 'Unavailable', status: 503, code: 'unavailable', detail: 'The database is unavailable.' }),
          })
        : route.fallback(),
    );
    try {
      await toggle.focus();
      await page.keyboard.press('Space');
      await page.getByRole('alert').filter({ hasText: '“Crew roster sync” was not enabled' }).waitFor();
      await expect.poll(() => toggle.isChecked()).toBe(false);
      await shot(page, 'keys-toggle-failed-1280');
    } finally {
      await page.unroute('**/backoffice/api/api-keys/*');
    }
    // The 503 was ours; anything else the page logged still counts.
    expect(problems.filter((problem) => !problem.startsWith('503 '))).toEqual([]);
    problems.splice(0);
    await page.getByRole('button', { name: 'Dismiss message' }).click();
  });

  it('asks before deleting, naming the key, and then the key is gone', async () => {
    await page.getByRole('button', { name: 'Delete Crew roster sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete API key?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('“Crew roster sync”');
    expect(await dialog.textContent()).toContain('This cannot be undone.');
    await shot(page, 'delete-dialog-1280');
    await expectAccessible(page, 'delete dialog');
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'No API keys yet' }).waitFor();

    const gone = await whoami(server.url, secret);
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe('api_key_invalid');
  });

  it('shows who did what in the Activity view', async () => {
    await page.getByRole('tab', { name: 'Activity' }).click();
    const table = page.getByRole('table', { name: 'Activity' });
    await table.getByText('Deleted API key “Crew roster sync”', { exact: false }).waitFor();
    await table.getByText('Created API key “Crew roster sync”', { exact: false }).waitFor();
    expect(await table.getByText(ADMIN.email).count()).toBeGreaterThan(2);
    await shot(page, 'activity-1280');
    await expectAccessible(page, 'activity');
    await page.getByRole('tab', { name: 'Keys' }).click();
  });

  it('adds a user with a role on the Users page', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('E-mail').fill(CREW.email);
    await dialog.getByLabel('Name').fill('Casey Crew');
    await dialog.getByLabel('Initial password').fill(CREW.password);
    await dialog.getByRole('checkbox', { name: 'Operations' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Crew' }).check();
    await expectAccessible(page, 'add-user dialog');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await dialog.waitFor({ state: 'detached' });
    const crewRow = page.getByRole('table', { name: 'Users' }).locator('tr', { hasText: CREW.email });
    await crewRow.getByText('Crew', { exact: true }).waitFor();

    await page.getByRole('button', { name: `Change roles of ${CREW.email}` }).click();
    const roles = page.getByRole('dialog', { name: 'Change roles' });
    await roles.getByRole('checkbox', { name: 'Operations' }).check();
    await roles.getByRole('button', { name: 'Save roles' }).click();
    await roles.waitFor({ state: 'detached' });
    await crewRow.getByText('Operations', { exact: true }).waitFor();
    await shot(page, 'users-1280');
    await expectAccessible(page, 'users');
  });

  it('shows a non-admin the 403 page naming the role needed', async () => {
    const crew = await openContext(browser, server.url);
    try {
      await crew.page.goto('/backoffice/login?next=%2Fbackoffice%2Fsettings%2Fapi-keys');
      await signIn(crew.page, CREW.email, CREW.password);
      await crew.page.getByText('You don’t have access to this page').waitFor();
      expect(await crew.page.getByRole('alert').textContent()).toContain('System Administrator');
      expect(await crew.page.getByRole('switch').count()).toBe(0);
      const direct = await crew.page.goto('/backoffice/settings/api-keys');
      expect(direct?.status()).toBe(403);
      await crew.page.getByText('This page needs the System Administrator role').waitFor();
      await shot(crew.page, 'forbidden-1280');
      await expectAccessible(crew.page, '403 page');
      expect(crew.problems).toEqual([]);
    } finally {
      await crew.context.close();
    }
  });

  it('shows an expired key with its badge and a locked switch', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('Charter partner feed');
    await dialog.getByRole('button', { name: 'Expires at' }).click();
    const tomorrow = new Date(Date.now() + DAY_MS);
    const dayLabel = `${tomorrow.getUTCDate()} ${tomorrow.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${tomorrow.getUTCFullYear()}`;
    await page.getByRole('button', { name: dayLabel, exact: true }).click();
    await dialog.getByText('The key stops working at 00:00 UTC').waitFor();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'I have saved the key' }).click();
    await row('Charter partner feed').getByText('stops at 00:00 UTC').waitFor();

    // Two days on, the server's sessions have lapsed too: sign in again.
    clock.advance(2 * DAY_MS);
    await page.reload();
    await page.waitForURL('**/backoffice/login?next=*');
    await signIn(page, ADMIN.email, ADMIN.password);
    const expired = row('Charter partner feed');
    await expired.getByText('Expired', { exact: true }).first().waitFor();
    const toggle = page.getByRole('switch', { name: 'Enabled: Charter partner feed' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await toggle.isDisabled()).toBe(true);
    await expired.getByText(/Expired on .* Create a new key instead\./).waitFor();
    await shot(page, 'keys-expired-1280');
    await expectAccessible(page, 'expired key');
    expect(problems).toEqual([]);
  });

  it('stays readable and accessible at 390 px', async () => {
    await page.setViewportSize(PHONE);
    await page.reload();
    const card = page.locator('li', { has: page.getByText('Charter partner feed', { exact: true }) });
    await card.getByText('Expired', { exact: true }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'keys-390');
    await expectAccessible(page, 'key cards at 390 px');

    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('dialog', { name: 'Create API key' }).getByLabel('Name').fill('Phone key');
    await page.getByRole('dialog', { name: 'Create API key' }).getByRole('button', { name: 'Create' }).click();
    await page.getByRole('dialog', { name: 'Your new API key' }).waitFor();
    await shot(page, 'secret-dialog-390');
    await expectAccessible(page, 'secret dialog at 390 px');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Your new API key' }).waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('list', { name: 'Users' }).getByText(CREW.email).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'users-390');
    await expectAccessible(page, 'users at 390 px');
    expect(problems).toEqual([]);
  });

  it('signs out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');
    const after = await page.request.get('/backoffice/api/session');
    expect(after.status()).toBe(401);
  });
});
