import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, inViewport, PHONE, shot, signIn } from './browser-kit.ts';
import { addUser, ADMIN, clock, CREW, DAY_MS, page, problems, row, useBackOffice } from './backoffice-story.ts';

/** An expired key, the phone layout and signing out, in Chromium. */
describe('back office in Chromium: expiry, 390 px, sign out', () => {
  useBackOffice({ signedIn: true });
  beforeAll(async () => {
    await addUser(CREW, ['crew', 'operations']);
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
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('Phone key');
    // One column: the quota under the rate limit, nothing wider than the screen.
    const rate = await dialog.getByLabel('Rate limit', { exact: true }).boundingBox();
    const quota = await dialog.getByLabel('Quota', { exact: true }).boundingBox();
    expect(quota!.y).toBeGreaterThan(rate!.y + rate!.height);
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await shot(page, 'create-dialog-390');
    // Tab by Tab down to Create, which comes into view, and Enter creates the key.
    const create = dialog.getByRole('button', { name: 'Create', exact: true });
    const focused = () => create.evaluate((button) => button === document.activeElement);
    for (let tabs = 0; tabs < 15 && !(await focused()); tabs++) await page.keyboard.press('Tab');
    expect(await focused()).toBe(true);
    expect(await inViewport(page, create)).toBe(true);
    await page.keyboard.press('Enter');
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
