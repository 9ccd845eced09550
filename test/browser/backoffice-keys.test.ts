import { describe, expect, it } from 'vitest';
import { signedInAs } from '../support/actors.ts';
import { DESKTOP, expectAccessible, inViewport, PHONE, shot, signIn, textLayout, whoami } from './browser-kit.ts';
import { addUser, ADMIN, adminActor, page, problems, row, server, useBackOffice } from './backoffice-story.ts';

const LONG = { email: 'night-shift.operations.desk@fjord-airlines.example', password: 'night-shift-password' };

/** The key list in Chromium: sign in, create (shown once), disable, a refused change, delete. */
describe('back office in Chromium: API keys', () => {
  useBackOffice();
  let secret = '';

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
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/backoffice/settings/api-keys');
    await page.getByRole('heading', { name: 'No API keys yet' }).waitFor();
    await expect
      .poll(() => page.getByTestId('authority-note').textContent())
      .toContain('act as the user who created them');
    await shot(page, 'keys-empty-1280');
    await expectAccessible(page, 'empty key list');
  });

  it('opens and closes the create dialog with the keyboard alone, Create in view on a laptop screen', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const create = page.getByRole('button', { name: 'Create API key' });
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    expect(await inViewport(page, dialog.getByRole('button', { name: 'Create', exact: true }))).toBe(true);
    // The rate limit and the quota side by side, their boxes level.
    const rate = await dialog.getByLabel('Rate limit', { exact: true }).boundingBox();
    const quota = await dialog.getByLabel('Quota', { exact: true }).boundingBox();
    expect(quota!.x).toBeGreaterThan(rate!.x + rate!.width);
    expect(quota!.y).toBe(rate!.y);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-autofocus'))).not.toBeNull();
    await page.keyboard.press('Enter'); // empty name: refused before any request
    await dialog.getByText('Give the key a name.').waitFor();
    await shot(page, 'create-dialog-1280');
    await expectAccessible(page, 'create dialog');
    expect(await inViewport(page, dialog.getByRole('button', { name: 'Create', exact: true }))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => create.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.setViewportSize(DESKTOP);
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
    await row('Crew roster sync')
      .getByText(`ask_…${secret.slice(-4)}`)
      .waitFor();
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
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/api-keys/'),
    );
    await toggle.focus();
    await page.keyboard.press('Space');
    expect((await saved).status()).toBe(200);
    // The switch settles once React has rendered the saved state; poll rather than read one frame.
    await expect.poll(() => toggle.isChecked(), { timeout: 5_000 }).toBe(false);
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
            body: JSON.stringify({
              type: 'about:blank',
              title: 'Unavailable',
              status: 503,
              code: 'unavailable',
              detail: 'The database is unavailable.',
            }),
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

  it('shows who created a key on one line: a long address ends in “…”, the whole of it on hover', async () => {
    await addUser(LONG, ['system_administrator']);
    const longActor = signedInAs(await server.services.accounts.users.requireByEmail(LONG.email));
    await server.services.keys.lifecycle.create(await adminActor(), { name: 'Crew roster sync' });
    await server.services.keys.lifecycle.create(longActor, { name: 'Night shift feed' });
    await page.reload();
    const mine = row('Crew roster sync').getByTestId('key-created-by');
    const theirs = row('Night shift feed').getByTestId('key-created-by');
    expect(await mine.textContent()).toBe(`by ${ADMIN.email}`);
    expect(await textLayout(mine)).toEqual({ lines: 1, cut: false, overflow: 'ellipsis', title: ADMIN.email });
    expect(await theirs.textContent()).toBe(`by ${LONG.email}`);
    expect(await textLayout(theirs)).toEqual({ lines: 1, cut: true, overflow: 'ellipsis', title: LONG.email });
    // A row's 7-day usage loads once it scrolls into view: seen, the capture shows it rather than a spinner.
    const seen = async (rows: Array<ReturnType<typeof row>>) => {
      for (const shown of rows) {
        await shown.scrollIntoViewIfNeeded();
        await shown.getByTestId('key-usage-7d-total').waitFor();
      }
    };
    await seen([row('Crew roster sync'), row('Night shift feed')]);
    await shot(page, 'keys-created-by-1280');

    await page.setViewportSize(PHONE);
    const card = (name: string) => page.locator('li', { has: page.getByText(name, { exact: true }) });
    expect(await textLayout(card('Crew roster sync').getByTestId('key-created-by'))).toMatchObject({ lines: 1 });
    expect(await textLayout(card('Night shift feed').getByTestId('key-created-by'))).toMatchObject({
      lines: 1,
      overflow: 'ellipsis',
      title: LONG.email,
    });
    await seen([card('Crew roster sync'), card('Night shift feed')]);
    await shot(page, 'keys-created-by-390');
    await page.setViewportSize(DESKTOP);
  });
});
