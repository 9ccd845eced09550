import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { migratedDataDir } from '../support/databases.ts';
import { rateLimitFieldsOf } from '../support/rate-limit-kit.ts';
import { withKey } from '../support/keys.ts';
import { expectAccessible, ensureWebBuilt, launchChromium, openContext, shot, signIn } from './browser-kit.ts';

const ADMIN = { email: 'admin@demo-air.test', password: 'correct-horse-battery-staple' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let problems: string[];

async function whoamiFields(secret: string) {
  const request = withKey(secret, `${server.url}/api/v1/whoami`);
  const response = await fetch(request.url, { headers: request.headers });
  await response.arrayBuffer();
  return { status: response.status, fields: rateLimitFieldsOf(response.headers) };
}

/** docs/keys.md (Rate limits): the limit set in the create dialog, shown in the row, changed in the key's view. */
describe('a key’s rate limit in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    ensureWebBuilt();
    server = await startServer({
      ...loadConfig({}),
      port: 0,
      dataDir: migratedDataDir(),
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      demo: false,
    });
    browser = await launchChromium();
    ({ page, problems } = await openContext(browser, server.url));
    await page.goto('/backoffice/login?next=%2Fbackoffice%2Fsettings%2Fapi-keys');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL('**/backoffice/settings/api-keys');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sets a limit in the create dialog with the keyboard, shows it in the row, and changes it in the key’s view', async () => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    await page.keyboard.type('Partner feed');
    await dialog.getByLabel('Rate limit', { exact: true }).focus();
    await page.keyboard.type('120');
    await dialog.getByLabel('Per', { exact: true }).focus();
    await dialog.getByLabel('Per', { exact: true }).selectOption({ label: 'requests per minute' });
    await expectAccessible(page, 'create dialog with a rate limit');
    await shot(page, 'create-dialog-rate-limit-1280');
    await dialog.getByRole('button', { name: 'Create' }).focus();
    await page.keyboard.press('Enter');
    const secretDialog = page.getByRole('dialog', { name: 'Your new API key' });
    await secretDialog.waitFor();
    const secret = await secretDialog.getByTestId('new-key-secret').inputValue();
    await secretDialog.getByRole('button', { name: 'I have saved the key' }).click();
    await secretDialog.waitFor({ state: 'detached' });

    const row = page.locator('tr', { has: page.getByRole('button', { name: 'Partner feed', exact: true }) });
    expect(await row.getByTestId('row-rate-limit').textContent()).toBe('120 requests per minute');
    expect(await whoamiFields(secret)).toMatchObject({ status: 200, fields: { policy: { q: 120, w: 60 } } });

    await row.getByRole('button', { name: 'Partner feed', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'API key “Partner feed”' });
    await drawer.waitFor();
    expect(await drawer.getByTestId('key-rate-limit').textContent()).toBe('120 requests per minute');
    await drawer.getByRole('button', { name: 'Change the rate limit of Partner feed' }).click();
    // The field's heading once: the boxes are named by it for screen readers, not under it again.
    expect(await drawer.getByText('Rate limit', { exact: true }).count()).toBe(1);
    // The number has the focus: replace it from the keyboard and save with Enter.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    await drawer.getByLabel('Per', { exact: true }).selectOption({ label: 'requests per second' });
    await expectAccessible(page, 'rate limit editor');
    await drawer.getByLabel('Rate limit', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => drawer.getByTestId('key-rate-limit').textContent()).toBe('5 requests per second');
    await shot(page, 'key-view-rate-limit-1280');
    expect(await whoamiFields(secret)).toMatchObject({ status: 200, fields: { policy: { q: 5, w: 1 } } });

    await drawer.getByRole('button', { name: 'Change the rate limit of Partner feed' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await drawer.getByRole('button', { name: 'Save limit' }).click();
    await expect.poll(() => drawer.getByTestId('key-rate-limit').textContent()).toBe('No limit');
    expect(await whoamiFields(secret)).toEqual({ status: 200, fields: null });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await row.getByTestId('row-rate-limit').textContent()).toBe('No limit');
    expect(problems).toEqual([]);
  });
});
