import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { migratedDataDir } from '../support/databases.ts';
import { expectAccessible, ensureWebBuilt, launchChromium, openContext, shot, signIn, whoami } from './browser-kit.ts';

const ADMIN = { email: 'admin@demo-air.test', password: 'correct-horse-battery-staple' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let problems: string[];

/** docs/keys.md (IP allowlists): the list edited in the create dialog and the key's view, each line judged as typed; the last refusal shown. */
describe('a key’s allowed IP addresses in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    ensureWebBuilt();
    server = await startServer({
      ...loadConfig({}),
      port: 0,
      dataDir: migratedDataDir(),
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      demo: false,
      usageFlushMs: 100,
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

  it('judges each line as it is typed, offers the caller’s own address, and creates the key with the keyboard only', async () => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    await page.keyboard.type('Partner egress');
    const box = dialog.getByRole('textbox', { name: 'Allowed IP addresses' });
    await box.focus();
    await page.keyboard.type('192.0.2.0/24');
    await page.keyboard.press('Enter');
    await page.keyboard.type('10.0.0.1/8');
    const lineProblems = dialog.getByTestId('allowed-ips-problems');
    await expect
      .poll(() => lineProblems.textContent())
      .toBe('Line 2: "10.0.0.1/8" has host bits set: the range is 10.0.0.0/8.');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'create dialog with a bad address line');
    await shot(page, 'create-dialog-allowed-ips-error-1280');
    // Fix the line from the keyboard: the problem goes as soon as the line is right.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type('0/8');
    await lineProblems.waitFor({ state: 'detached' });
    // The server says who we are; the suggestion adds it as a line of its own.
    const addMine = dialog.getByRole('button', { name: 'Add my address 127.0.0.1 to the allowed IP addresses' });
    await addMine.focus();
    await page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe('192.0.2.0/24\n10.0.0.0/8\n127.0.0.1');
    await expectAccessible(page, 'create dialog with allowed addresses');
    await dialog.getByRole('button', { name: 'Create' }).focus();
    await page.keyboard.press('Enter');
    const secretDialog = page.getByRole('dialog', { name: 'Your new API key' });
    await secretDialog.waitFor();
    const secret = await secretDialog.getByTestId('new-key-secret').inputValue();
    await secretDialog.getByRole('button', { name: 'I have saved the key' }).focus();
    await page.keyboard.press('Enter');
    await secretDialog.waitFor({ state: 'detached' });
    expect((await whoami(server.url, secret)).status).toBe(200);

    const name = page.getByRole('button', { name: 'Partner egress', exact: true });
    await name.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'API key “Partner egress”' });
    await drawer.waitFor();
    expect(await drawer.getByTestId('key-allowed-ips').textContent()).toBe('192.0.2.0/2410.0.0.0/8127.0.0.1');
    expect(await drawer.getByTestId('key-last-refused').textContent()).toBe('Never');

    // Narrow to a range this browser is not in: the next request is refused, and the view says from where.
    await drawer.getByRole('button', { name: 'Change the allowed IP addresses of Partner egress' }).focus();
    await page.keyboard.press('Enter');
    // The field's heading once: the box is named by it for screen readers, not under it a second time.
    await drawer.getByRole('textbox', { name: 'Allowed IP addresses' }).waitFor();
    expect(await drawer.getByText('Allowed IP addresses', { exact: true }).count()).toBe(1);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('192.0.2.0/24');
    await expectAccessible(page, 'allowed addresses editor');
    await drawer.getByRole('button', { name: 'Save addresses' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => drawer.getByTestId('key-allowed-ips').textContent()).toBe('192.0.2.0/24');
    const refused = await whoami(server.url, secret);
    expect(refused).toMatchObject({ status: 403, body: { code: 'api_key_ip_not_allowed' } });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('button', { name: 'Partner egress', exact: true }).click();
          const text = await drawer.getByTestId('key-last-refused').textContent();
          await page.keyboard.press('Escape');
          return text;
        },
        { timeout: 10_000 },
      )
      .toBe('127.0.0.1');
    expect(problems).toEqual([]);
  });
});
