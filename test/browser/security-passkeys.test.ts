import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectAccessible, PHONE, shot, signIn, useVirtualAuthenticator } from './browser-kit.ts';
import { ADMIN, clock, page, problems, row, useBackOffice } from './backoffice-story.ts';

const MINUTE_MS = 60_000;

/**
 * Passkeys in Chromium with its virtual authenticator (a platform authenticator that holds
 * discoverable credentials and verifies the user): added on the Security page, signing in alone,
 * and confirming it is you before a key is created.
 */
describe('back office in Chromium: passkeys', () => {
  useBackOffice({ signedIn: true, host: 'localhost' });

  beforeAll(async () => {
    await useVirtualAuthenticator(page);
  });

  it('adds a passkey on the Security page and shows the recovery codes once', async () => {
    await page.getByText('Only a password protects this account').waitFor();
    await page.getByRole('link', { name: 'Add a second factor on the Security page' }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await page.getByLabel('Name of the new passkey').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();

    const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
    await codes.getByText('Save them now: they will not be shown again').waitFor();
    expect(await codes.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
    await codes.getByRole('button', { name: 'I have saved the codes' }).click();
    await codes.waitFor({ state: 'detached' });

    await page.getByRole('list', { name: 'Your passkeys' }).getByText('Work laptop').waitFor();
    await page.getByText('10 of 10 left').waitFor();
    // The banner for a System Administrator without a second factor is gone.
    expect(await page.getByText('Only a password protects this account').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('signs out and signs in with the passkey alone, no password typed', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/backoffice/settings/api-keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
  });

  it('asks to confirm it is you before creating a key once the sign-in is old, then creates it', async () => {
    clock.advance(11 * MINUTE_MS);
    await page.getByRole('button', { name: 'Create API key' }).click();
    const create = page.getByRole('dialog', { name: 'Create API key' });
    await create.getByLabel('Name').fill('Reconfirmed feed');
    await create.getByRole('button', { name: 'Create', exact: true }).click();

    const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByText('This change needs a recent sign-in').waitFor();
    // A person with a passkey is offered it, not a password.
    expect(await confirm.getByLabel('Your password').count()).toBe(0);
    await shot(page, 'reauth-passkey-1280');
    await page.setViewportSize(PHONE);
    await shot(page, 'reauth-passkey-390');
    await expectAccessible(page, 're-authentication dialog at 390 px');
    await page.setViewportSize(DESKTOP);
    await confirm.getByRole('button', { name: 'Use your passkey' }).click();

    // The key the person asked for is created without asking twice.
    await page.getByRole('dialog', { name: 'Your new API key' }).waitFor();
    await page.getByRole('button', { name: 'I have saved the key' }).click();
    await row('Reconfirmed feed').waitFor();
    expect(await confirm.count()).toBe(0);
    await expectAccessible(page, 'keys after re-authentication');
    expect(problems).toEqual([]);
  });

  it('offers the passkey as the step after a password', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/backoffice/login');
    await signIn(page, ADMIN.email, ADMIN.password);
    const usePasskey = page.getByRole('button', { name: 'Use a passkey' });
    await usePasskey.waitFor();
    // No authenticator app: no code field, the recovery code one click away.
    expect(await page.getByLabel('Code from your authenticator app').count()).toBe(0);
    await page.getByRole('button', { name: 'Use a recovery code' }).waitFor();
    await shot(page, 'second-factor-passkey-1280');
    await expectAccessible(page, 'second-factor step with a passkey');
    await usePasskey.click();
    await page.waitForURL('**/backoffice/settings/api-keys');
    expect(problems).toEqual([]);
  });
});
