import type { Locator, Request } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { expectAccessible, shot } from './browser-kit.ts';
import { ADMIN, clock, page, problems, useBackOffice } from './backoffice-story.ts';

const MINUTE_MS = 60_000;
let setupKey = '';
const codeNow = () =>
  new TOTP({ secret: Secret.fromBase32(setupKey), digits: 6, period: 30 }).generate({ timestamp: clock.nowMs() });

const isFocused = (element: Locator) => element.evaluate((node) => node === document.activeElement);

/** Tab forward until the element has the focus, as a keyboard user would (a bounded number of presses). */
async function tabTo(element: Locator, presses = 40): Promise<void> {
  for (let tab = 0; tab < presses && !(await isFocused(element)); tab++) await page.keyboard.press('Tab');
  expect(await isFocused(element)).toBe(true);
}

/** The Security page, the re-authentication dialog and the second-factor step, without a mouse. */
describe('back office in Chromium: security by keyboard alone', () => {
  useBackOffice({ signedIn: true });

  it('sets up the authenticator app, confirming it is you with the password when the sign-in is old', async () => {
    await page.goto('/backoffice/settings/security');
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await expectAccessible(page, 'Security page without a second factor');
    await tabTo(page.getByRole('button', { name: 'Set up authenticator app' }));
    await page.keyboard.press('Enter');
    const field = page.getByLabel('2. Enter the code the app shows');
    await field.waitFor();
    const section = page.getByRole('region', { name: 'Authenticator app' });
    setupKey = (await section.locator('code').innerText()).replace(/\s/g, '');

    clock.advance(11 * MINUTE_MS);
    await tabTo(field);
    await page.keyboard.type(codeNow());
    await page.keyboard.press('Enter');

    // No second factor yet: the dialog asks for the password, and has the focus.
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    const password = dialog.getByLabel('Your password');
    await password.waitFor();
    expect(await isFocused(password)).toBe(true);
    await shot(page, 'reauth-password-1280');
    await expectAccessible(page, 're-authentication dialog');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');

    // The code sent before the dialog is sent again, and the app is added.
    const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
    const saved = codes.getByRole('button', { name: 'I have saved the codes' });
    await saved.waitFor();
    expect(await isFocused(saved)).toBe(true);
    await expectAccessible(page, 'recovery codes dialog');
    await page.keyboard.press('Enter');
    await codes.waitFor({ state: 'detached' });
    await section.getByText('On', { exact: true }).waitFor();
    await expectAccessible(page, 'Security page with a second factor');
    expect(problems).toEqual([]);
  });

  it('leaves the change undone, and says so, when the person closes the dialog with Escape', async () => {
    clock.advance(11 * MINUTE_MS);
    await tabTo(page.getByRole('button', { name: 'Make new recovery codes' }));
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', { name: 'Make new recovery codes?' });
    await tabTo(ask.getByRole('button', { name: 'Make new codes' }), 5);
    await page.keyboard.press('Enter');

    // With the app added, the dialog asks for its code, not the password.
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    const code = dialog.getByLabel('Code from your authenticator app');
    await code.waitFor();
    expect(await isFocused(code)).toBe(true);
    expect(await dialog.getByLabel('Your password').count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await ask.getByText('No new recovery codes were made').waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await page.getByText('10 of 10 left').waitFor();
  });

  it('signs in by keyboard: e-mail, password, then the code', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');
    await page.getByLabel('E-mail').waitFor();
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    const code = page.getByLabel('Code from your authenticator app');
    await code.waitFor();
    expect(await isFocused(code)).toBe(true);
    await expectAccessible(page, 'second-factor step');
    clock.advance(MINUTE_MS);
    await page.keyboard.type(codeNow());
    await page.keyboard.press('Enter');
    await page.waitForURL('**/backoffice/settings/api-keys');
    expect(problems).toEqual([]);
  });

  it('says the session ended after half an hour idle, and signs back in to the page the person opened', async () => {
    // The link is reached and the page's own requests are done first: one still on its way when
    // the clock moves would find the ended session and send the person to sign-in from here.
    await tabTo(page.getByRole('navigation').getByRole('link', { name: 'Users' }));
    await page.waitForLoadState('networkidle');
    // Every query the page then sends is refused; the page must still leave for sign-in once (a
    // second navigation aborts the first).
    const signInLoads: string[] = [];
    const onRequest = (request: Request) => {
      if (request.isNavigationRequest() && new URL(request.url()).pathname === '/backoffice/login')
        signInLoads.push(request.url());
    };
    page.on('request', onRequest);
    clock.advance(31 * MINUTE_MS);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/backoffice/login?*');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/backoffice/users');
    await page.getByRole('status').getByText('Your session ended').waitFor();
    page.off('request', onRequest);
    expect(signInLoads).toHaveLength(1);
    await expectAccessible(page, 'sign-in after an ended session');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByLabel('Code from your authenticator app').fill(codeNow());
    await page.keyboard.press('Enter');
    await page.waitForURL('**/backoffice/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(problems).toEqual([]);
  });
});
