import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { DESKTOP, expectAccessible, PHONE, shot, signIn } from './browser-kit.ts';
import { ADMIN, clock, page, problems, useBackOffice } from './backoffice-story.ts';

const STEP_MS = 30_000;
let setupKey = '';
let recoveryCodes: string[] = [];

/** The code an authenticator app holding the setup key shows now (the server's clock). */
const codeNow = () =>
  new TOTP({ secret: Secret.fromBase32(setupKey), digits: 6, period: 30 }).generate({ timestamp: clock.nowMs() });

/** An authenticator app enrolled on the Security page, then asked for at sign-in; a recovery code in its place. */
describe('back office in Chromium: authenticator app', () => {
  useBackOffice({ signedIn: true });

  it('sets up the app with the setup key shown on the page and a code from it', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    // What a person types into their app by hand: the key as the page shows it, spaces and all.
    const shown = page
      .locator('section', { has: page.getByRole('heading', { name: 'Authenticator app' }) })
      .locator('code');
    setupKey = (await shown.innerText()).replace(/\s/g, '');
    expect(setupKey).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('link', { name: 'open the setup link in your app' }).waitFor();

    await page.getByLabel('2. Enter the code the app shows').fill('000000' === codeNow() ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm code' }).click();
    await page.getByText('That code is not right.').waitFor();

    await page.getByLabel('2. Enter the code the app shows').fill(codeNow());
    await page.getByRole('button', { name: 'Confirm code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    const items = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await items.first().waitFor();
    recoveryCodes = await items.allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await dialog.getByRole('button', { name: 'I have saved the codes' }).click();
    await page.getByRole('region', { name: 'Authenticator app' }).getByText('On', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Where you are signed in' }).getByText('This session').waitFor();
    await shot(page, 'security-1280');
    await expectAccessible(page, 'Security page');
    expect(problems).toEqual([]);
  });

  it('asks for a code after the password, refuses the code already used, and takes the next one', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    const code = page.getByLabel('Code from your authenticator app');
    await code.waitFor();
    await shot(page, 'second-factor-step-1280');
    await expectAccessible(page, 'second-factor step');
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'second-factor-step-390');
    await page.setViewportSize(DESKTOP);

    // The code that confirmed the app was spent then: a replay is refused.
    await code.fill(codeNow());
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('That did not work').waitFor();

    clock.advance(STEP_MS);
    await code.fill(codeNow());
    await page.keyboard.press('Enter');
    await page.waitForURL('**/backoffice/settings/api-keys');
  });

  it('signs in with a recovery code in place of the app, once', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!.toLowerCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/backoffice/settings/api-keys');

    await page.getByRole('navigation').getByRole('link', { name: 'Security' }).click();
    await page.getByText('9 of 10 left').waitFor();

    // Spent: the same code does not open a second session.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').getByText('That did not work').waitFor();
    expect(page.url()).toContain('/backoffice/login');
    expect(problems).toEqual([]);
  });
});
