import { beforeAll, describe, expect, it } from 'vitest';
import { backofficeApi, DESKTOP, expectAccessible, PHONE, shot } from './browser-kit.ts';
import { addUser, CREW, DAY_MS, page, problems, row, useBackOffice } from './backoffice-story.ts';
import { signIn } from './browser-kit.ts';

type Created = { api_key: { id: string; expires_at: string | null }; secret: string };
const dayLabel = (date: Date) =>
  `${date.getUTCDate()} ${date.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${date.getUTCFullYear()}`;

/** docs/keys.md (Key policy): the Key policy section, keys outside it marked, and a roll that asks for an expiry. */
describe('the key policy in Chromium', { timeout: 120_000 }, () => {
  useBackOffice({ signedIn: true, clock: 'real' });
  beforeAll(async () => {
    const api = await backofficeApi(page);
    const inTen = new Date(Date.now() + 10 * DAY_MS).toISOString().slice(0, 10);
    expect((await api<Created>('POST', '/api-keys', { name: 'Forever key' })).status).toBe(201);
    expect((await api<Created>('POST', '/api-keys', { name: 'Short key', expires_at: inTen })).status).toBe(201);
    await page.reload();
  });

  it('shows the policy to a System Administrator, with nothing required by default', async () => {
    const section = page.getByRole('region', { name: 'Key policy' });
    await section.getByText('No maximum', { exact: true }).waitFor();
    expect(await section.getByText('Never', { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('outside-policy').count()).toBe(0);
    await expectAccessible(page, 'keys page with the key policy section');
  });

  it('changes the policy with the keyboard only, and marks the key outside it with the reason', async () => {
    await page.getByRole('button', { name: 'Change key policy' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Change key policy' });
    await dialog.waitFor();
    // The maximum lifetime has the focus; each field is a Tab further.
    await page.keyboard.type('30');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // require an expiry date
    await page.keyboard.press('Tab');
    await page.keyboard.type('90');
    await expectAccessible(page, 'key policy dialog');
    await shot(page, 'key-policy-dialog-1280');
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/key-policy'));
    await page.keyboard.press('Enter');
    expect((await saved).status()).toBe(200);
    await dialog.waitFor({ state: 'detached' });

    const section = page.getByRole('region', { name: 'Key policy' });
    await section.getByText('30 days', { exact: true }).waitFor();
    await section.getByText('90 days', { exact: true }).waitFor();
    await page
      .getByTestId('outside-policy-count')
      .getByText('1 key is outside this policy', { exact: false })
      .waitFor();
    await row('Forever key')
      .getByText('Outside the key policy: never expires (at most 30 days allowed)', { exact: true })
      .waitFor();
    expect(await row('Short key').getByTestId('outside-policy').count()).toBe(0);
    await expectAccessible(page, 'keys page with a key outside the policy');
    await shot(page, 'key-policy-section-1280');
  });

  it('asks for an expiry date in the create dialog: the empty box says so, not “Never expires”', async () => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    const expiry = dialog.getByRole('button', { name: /^Expires at/ });
    expect(await expiry.textContent()).toBe('Choose a date');
    await dialog.getByLabel('Name').fill('Needs a date');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('give an expiry date', { exact: false }).waitFor();
    expect(await expiry.textContent()).toBe('Choose a date');
    expect(await dialog.textContent()).not.toContain('Never expires');
    await expectAccessible(page, 'create dialog under a policy that requires an expiry');
    await shot(page, 'key-policy-create-dialog-1280');
    await page.setViewportSize(PHONE);
    await shot(page, 'key-policy-create-dialog-390');
    await page.setViewportSize(DESKTOP);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('asks for a new expiry when rolling a key the policy would refuse, and the successor complies', async () => {
    await row('Forever key').getByRole('button', { name: 'Roll Forever key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll API key' });
    await dialog.getByText('New expiry date').waitFor();
    await dialog.getByRole('radio', { name: 'None' }).check();
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await dialog.getByText('Choose the new key’s expiry date.').waitFor();
    await expectAccessible(page, 'roll dialog asking for an expiry');
    await shot(page, 'key-policy-roll-dialog-1280');

    // The calendar opens on tomorrow's month.
    const tomorrow = new Date(Date.now() + DAY_MS);
    const chosen = new Date(Date.now() + 2 * DAY_MS);
    await dialog.getByRole('button', { name: /^New expiry date/ }).click();
    if (chosen.getUTCMonth() !== tomorrow.getUTCMonth()) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: dayLabel(chosen), exact: true }).click();
    const rolled = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/roll'));
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const response = await rolled;
    expect(response.status()).toBe(201);
    expect(((await response.json()) as Created).api_key.expires_at).toBe(chosen.toISOString().slice(0, 10));
    const secretDialog = page.getByRole('dialog', { name: 'Your new API key' });
    await secretDialog.getByRole('button', { name: 'I have saved the key' }).click();
    await secretDialog.waitFor({ state: 'detached' });
    await row('Forever key').waitFor();
    expect(await page.getByTestId('outside-policy').count()).toBe(0);
  });

  it('is not shown to a role without api_keys:manage, which cannot read it either', async () => {
    await addUser(CREW, ['operations']);
    const api = await backofficeApi(page);
    expect((await api('GET', '/key-policy')).status).toBe(200);
    await page.getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL('**/backoffice/login**');
    await signIn(page, CREW.email, CREW.password);
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    expect((await (await backofficeApi(page))('GET', '/key-policy')).status).toBe(403);
    expect(await page.getByRole('region', { name: 'Key policy' }).count()).toBe(0);
    expect(problems.filter((p) => !p.includes('403'))).toEqual([]);
  });
});
