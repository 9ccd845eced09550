import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { backofficeApi, expectAccessible, PHONE, shot, whoami } from './browser-kit.ts';
import { page, problems, row, server, useBackOffice } from './backoffice-story.ts';

const NAME = 'Flight lookups';
const drawer = () => page.getByRole('dialog', { name: `API key “${NAME}”` });
const bar = (within: Locator) => within.getByRole('progressbar', { name: `Quota used by ${NAME}` });

/** What the server has counted shows after a reload: `used` is as of the last usage flush. */
async function reloadUntil(read: () => Promise<string | null>, expected: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.reload();
        await row(NAME).waitFor();
        return read();
      },
      { timeout: 15_000 },
    )
    .toBe(expected);
}

async function openDrawer(): Promise<Locator> {
  await page.getByRole('button', { name: NAME, exact: true }).focus();
  await page.keyboard.press('Enter');
  await drawer().waitFor();
  return drawer();
}

/** docs/keys.md (Quotas): a quota set in the create dialog, shown as a bar, changed, used up and reset, by keyboard alone. */
describe('a key’s quota in Chromium', { timeout: 120_000 }, () => {
  useBackOffice({
    signedIn: true,
    clock: 'real',
    // Counts reach the database a tenth of a second after the requests, not five seconds.
    config: { usageFlushMs: 100 },
  });

  it('sets a quota in the create dialog and shows the bar in the row', async () => {
    await page.getByRole('button', { name: 'Create API key' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.waitFor();
    await page.keyboard.type(NAME);
    await dialog.getByLabel('Quota', { exact: true }).focus();
    await page.keyboard.type('5');
    await dialog.getByLabel('Period', { exact: true }).focus();
    await dialog.getByLabel('Period', { exact: true }).selectOption({ label: 'requests a day' });
    await expectAccessible(page, 'create dialog with a quota');
    await dialog.getByRole('button', { name: 'Create' }).focus();
    await page.keyboard.press('Enter');
    const secretDialog = page.getByRole('dialog', { name: 'Your new API key' });
    const secret = await secretDialog.getByTestId('new-key-secret').inputValue();
    await secretDialog.getByRole('button', { name: 'I have saved the key' }).focus();
    await page.keyboard.press('Enter');
    await secretDialog.waitFor({ state: 'detached' });

    expect(await row(NAME).getByTestId('row-quota').textContent()).toBe('0 of 5 today');
    expect(await bar(row(NAME)).getAttribute('aria-valuetext')).toBe('0 of 5 today');

    // Three requests through the public API: the server counts them, the row shows them.
    for (let i = 0; i < 3; i++) expect((await whoami(server.url, secret)).status).toBe(200);
    await reloadUntil(() => row(NAME).getByTestId('row-quota').textContent(), '3 of 5 today');
    expect(await bar(row(NAME)).getAttribute('aria-valuenow')).toBe('3');
    await shot(page, 'keys-quota-row-1280');
    await expectAccessible(page, 'key list with a quota');

    // Lowered to 4 in the key's view: one more request, then the key is refused for its quota.
    let view = await openDrawer();
    expect(await view.getByTestId('key-quota').textContent()).toBe('5 requests a day');
    expect(await view.getByTestId('key-quota-used').textContent()).toBe('3 of 5 today');
    await view.getByRole('button', { name: `Change the quota of ${NAME}` }).focus();
    await page.keyboard.press('Enter');
    // The number has the focus: replace it from the keyboard and save with Enter.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('4');
    await expectAccessible(page, 'quota editor');
    await page.keyboard.press('Enter');
    await expect.poll(() => view.getByTestId('key-quota').textContent()).toBe('4 requests a day');
    expect(await view.getByTestId('key-quota-used').textContent()).toBe('3 of 4 today');
    expect((await whoami(server.url, secret)).status).toBe(200);
    expect(await whoami(server.url, secret)).toMatchObject({ status: 429, body: { code: 'quota_exceeded' } });
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    await reloadUntil(() => row(NAME).getByTestId('row-quota').textContent(), '4 of 4 today');

    // The refusal is in the key's chart as its own series.
    view = await openDrawer();
    expect(await view.getByTestId('key-quota-used').textContent()).toBe('4 of 4 today');
    await expect.poll(() => view.getByTestId('key-usage-quota-exceeded').textContent()).toBe('1');
    expect(await view.getByTestId('key-usage-ok').textContent()).toBe('4');
    await shot(page, 'key-view-quota-1280');

    // Reset, after a confirmation that names the key and what it used; Cancel has the focus.
    await view.getByRole('button', { name: 'Reset quota' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Reset the quota?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`Set what “${NAME}” has used (4 of 4 today) back to 0?`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expectAccessible(page, 'reset quota confirmation');
    await shot(page, 'reset-quota-dialog-1280');
    // Escape cancels the confirmation only: the key's view stays open, the quota as it was.
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await view.isVisible()).toBe(true);
    expect(await view.getByTestId('key-quota-used').textContent()).toBe('4 of 4 today');
    await view.getByRole('button', { name: 'Reset quota' }).focus();
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reset quota');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => view.getByTestId('key-quota-used').textContent()).toBe('0 of 4 today');
    expect(await bar(view).getAttribute('aria-valuenow')).toBe('0');
    expect((await whoami(server.url, secret)).status).toBe(200);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  it('removes the quota in the key’s view, and the key is unlimited again', async () => {
    const view = await openDrawer();
    await view.getByRole('button', { name: `Change the quota of ${NAME}` }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await view.getByRole('button', { name: 'Save quota' }).click();
    await expect.poll(() => view.getByTestId('key-quota').textContent()).toBe('No quota');
    expect(await view.getByRole('button', { name: 'Reset quota' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    // The row follows once the list is fetched again after the change: wait for it, not for a time.
    await expect.poll(() => row(NAME).getByTestId('row-quota').textContent()).toBe('No quota');
    expect(problems).toEqual([]);
  });

  it('fits a narrower desktop and a phone, the bar on the key’s card', async () => {
    const id = await row(NAME).getAttribute('data-key-id');
    const api = await backofficeApi(page);
    expect((await api('PATCH', `/api-keys/${id}`, { quota: { requests: 50_000, period: 'total' } })).status).toBe(200);
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.reload();
    expect(await row(NAME).getByTestId('row-quota').textContent()).toMatch(/ of 50,000 in total$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1000);

    await page.setViewportSize(PHONE);
    await page.reload();
    const card = page.locator('li', { has: page.getByText(NAME, { exact: true }) });
    expect(await card.getByTestId('row-quota').textContent()).toMatch(/ of 50,000 in total$/);
    expect(await bar(card).getAttribute('aria-valuemax')).toBe('50000');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'keys-quota-390');
    await expectAccessible(page, 'key card with a quota at 390 px');
    expect(problems).toEqual([]);
  });
});
