import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { expectAccessible, PHONE, shot } from './browser-kit.ts';
import { adminActor, clock, page, problems, server, useBackOffice } from './backoffice-story.ts';

/** A tenant that requires a second factor: until one is added, the Security page is all there is. */
describe('back office in Chromium: a required second factor', () => {
  useBackOffice({ signedIn: true });

  it('shows only the Security page, saying why, until a second factor is added', async () => {
    const admin = await adminActor();
    await server.services.signIn.settings.update(admin, admin.tenantId, { second_factor_required: 'everyone' });
    await page.goto('/backoffice/settings/api-keys');
    await page.waitForURL('**/backoffice/settings/security');
    await page.getByText('Add a second factor to continue').waitFor();
    const nav = page.getByRole('navigation', { name: 'Back office' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Security']);
    await shot(page, 'security-enrolment-1280');
    await expectAccessible(page, 'enrolment-only Security page');

    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    const section = page.getByRole('region', { name: 'Authenticator app' });
    const key = (await section.locator('code').innerText()).replace(/\s/g, '');
    const code = new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: clock.nowMs() });
    await page.getByLabel('2. Enter the code the app shows').fill(code);
    await page.getByRole('button', { name: 'Confirm code' }).click();
    await page.getByRole('button', { name: 'I have saved the codes' }).click();

    // The rest of the back office opens at once.
    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(await page.getByText('Add a second factor to continue').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('stays readable at 390 px', async () => {
    await page.setViewportSize(PHONE);
    await page.getByRole('navigation').getByRole('link', { name: 'Security' }).click();
    await page.getByRole('region', { name: 'Where you are signed in' }).getByText('This session').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'security-390');
    await expectAccessible(page, 'Security page at 390 px');
  });
});
