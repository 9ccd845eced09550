import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInAs } from '../support/actors.ts';
import { expectAccessible } from './browser-kit.ts';
import { addUser, ADMIN, clock, CREW, page, problems, server, useBackOffice } from './backoffice-story.ts';

/** The users list says who has a second factor; a System Administrator resets a lost one and ends sessions. */
describe('back office in Chromium: users and their second factors', () => {
  useBackOffice({ signedIn: true });

  beforeAll(async () => {
    await addUser(CREW, ['crew']);
    // Casey sets up an authenticator app (without the UI: this story is the administrator's).
    const crew = signedInAs(await server.services.accounts.users.requireByEmail(CREW.email));
    const { secret } = await server.services.signIn.secondFactors.beginTotp(crew);
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.nowMs() });
    await server.services.signIn.secondFactors.confirmTotp(crew, code);
  });

  const rowOf = (email: string) => page.getByRole('table', { name: 'Users' }).locator('tr', { hasText: email });

  it('shows who has a second factor, and resets a lost one', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
    await rowOf(CREW.email).getByText('Second factor on').waitFor();
    await rowOf(ADMIN.email).getByText('Password only').waitFor();
    // Nothing to reset for someone without one.
    expect(await page.getByRole('button', { name: `Reset second factors of ${ADMIN.email}` }).count()).toBe(0);
    await expectAccessible(page, 'users with second-factor status');

    await page.getByRole('button', { name: `Reset second factors of ${CREW.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset this user’s second factors?' });
    await dialog.getByText('Only for a lost device').waitFor();
    await expectAccessible(page, 'reset dialog');
    await dialog.getByRole('button', { name: 'Reset second factors' }).click();
    await dialog.waitFor({ state: 'detached' });
    await rowOf(CREW.email).getByText('Password only').waitFor();
  });

  it('ends a user’s sessions', async () => {
    await page.getByRole('button', { name: `End sessions of ${CREW.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'End this user’s sessions?' });
    await dialog.getByRole('button', { name: 'End sessions' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`${CREW.email} must sign in again.`).waitFor();
    // One's own sessions are ended on the Security page, not here.
    expect(await page.getByRole('button', { name: `End sessions of ${ADMIN.email}` }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
