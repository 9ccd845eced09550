import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { WEBHOOK_EVENT_TYPES } from '../../src/shared/event-types.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooks } from '../../src/db/webhook-tables.ts';
import { expectAccessible, openContext, PHONE, shot, signIn } from './browser-kit.ts';
import { ADMIN, browser, page, problems, server, useBackOffice } from './backoffice-story.ts';
import { answerWith, startReceiver, verifyWith, WEBHOOK_TEST_CONFIG, type Receiver } from '../support/webhook-kit.ts';

let receiver: Receiver;
const URL_B = 'https://pager.example.net/in';

/** Presses Tab until the focused element's accessible text is `name`: how a keyboard user gets there. */
async function tabTo(target: Page, name: string): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await target.keyboard.press('Tab');
    const focused = await target.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element?.getAttribute('aria-label') ?? element?.innerText.trim() ?? '';
    });
    if (focused === name) return;
  }
  throw new Error(`Tab never reached “${name}”`);
}

async function sealedSecretOf(url: string): Promise<string> {
  const [row] = await server.services.database.db.select().from(webhooks).where(eq(webhooks.url, url));
  return server.services.webhooks.secrets.open(row!.secretSealed);
}

/** /backoffice/settings/webhooks in Chromium, as a System Administrator uses it. */
describe('back office in Chromium: webhooks', () => {
  // A real receiver on 127.0.0.1, which WEBHOOK_ALLOW_PRIVATE=1 lets an endpoint use.
  useBackOffice({ signedIn: true, config: WEBHOOK_TEST_CONFIG });
  beforeAll(async () => {
    receiver = await startReceiver(answerWith(204));
  });
  afterAll(async () => receiver?.close());

  it('reaches the page from the navigation and says there are no endpoints yet', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/backoffice/settings/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No endpoints yet.', { exact: false }).waitFor();
    await expectAccessible(page, 'empty webhooks page');
  });

  it('adds an endpoint, shows its secret once with a copy button, and never again', async () => {
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await dialog.getByLabel('URL').fill('https://user:password@example.com/hooks');
    await dialog.getByLabel('Description').fill('Ops pager');
    // Every event is chosen by default.
    expect(await dialog.getByRole('checkbox', { checked: true }).count()).toBe(WEBHOOK_EVENT_TYPES.length);
    await dialog.getByRole('checkbox', { name: 'api_key.rate_limited' }).uncheck();
    await expectAccessible(page, 'add-endpoint dialog');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    // The server's reason lands on the URL field.
    await dialog.getByText('A URL without a user name or password.').waitFor();
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Endpoint added' });
    const field = secretDialog.getByLabel(`Signing secret for ${receiver.url}`);
    const secret = await field.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).toBe(await sealedSecretOf(receiver.url));
    await secretDialog.getByText('it will not be shown again', { exact: false }).waitFor();
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    await secretDialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page, 'secret dialog');
    await shot(page, 'webhook-secret-1280');
    await secretDialog.getByRole('button', { name: 'I have saved the secret' }).click();
    await secretDialog.waitFor({ state: 'detached' });

    const card = page.getByRole('listitem', { name: `Endpoint ${receiver.url}` });
    await card.getByText('Ops pager').waitFor();
    await card.getByText('api_key.expiring').waitFor();
    expect(await card.getByText('api_key.rate_limited').count()).toBe(0);
    await page.reload();
    await card.waitFor();
    expect(await page.content()).not.toContain(secret.slice(6));
    await expectAccessible(page, 'webhooks list');
  });

  it('sends a test event, which the receiver gets and the log shows delivered, with Resend', async () => {
    const card = page.getByRole('listitem', { name: `Endpoint ${receiver.url}` });
    await card.getByRole('button', { name: 'Send test event to Ops pager' }).click();
    const log = page.getByRole('dialog', { name: `Deliveries to ${receiver.url}` });
    const delivery = log.getByTestId('delivery-row').first();
    await delivery.getByText('webhook.test').waitFor();
    await delivery.getByText('delivered').waitFor();
    await delivery.getByText('HTTP 204', { exact: false }).waitFor();
    const secret = await sealedSecretOf(receiver.url);
    expect(verifyWith(secret, receiver.received[0]!).type).toBe('webhook.test');
    await expectAccessible(page, 'delivery log');
    await shot(page, 'webhook-deliveries-1280');
    const retried = page.waitForResponse((response) => response.url().endsWith('/retry'));
    await delivery.getByRole('button', { name: /^Resend webhook\.test/ }).click();
    expect((await retried).status()).toBe(202);
    await page.getByText('Sending again').waitFor();
    // The log refreshes on its own: the second attempt shows up without a reload.
    await expect.poll(() => delivery.getByText('HTTP 204', { exact: false }).count(), { timeout: 10_000 }).toBe(2);
    expect(receiver.received).toHaveLength(2);
    await page.keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });
  });

  it('works with the keyboard alone: add, disable, rotate the secret, test', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await tabTo(page, 'Add endpoint');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await dialog.waitFor();
    await page.keyboard.type(URL_B); // the URL field has the focus
    await page.keyboard.press('Enter');
    const added = page.getByRole('dialog', { name: 'Endpoint added' });
    await added.waitFor();
    expect(await added.getByLabel(`Signing secret for ${URL_B}`).inputValue()).toBe(await sealedSecretOf(URL_B));
    await tabTo(page, 'I have saved the secret');
    await page.keyboard.press('Enter');
    await added.waitFor({ state: 'detached' });

    const card = page.getByRole('listitem', { name: `Endpoint ${URL_B}` });
    await tabTo(page, `Enabled: ${URL_B}`);
    await page.keyboard.press('Space');
    await card.getByText('Disabled', { exact: true }).waitFor();
    await page.keyboard.press('Space');
    await card.getByText('Enabled', { exact: true }).waitFor();

    await tabTo(page, `Rotate secret of ${URL_B}`);
    await page.keyboard.press('Enter');
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    await rotated.getByText('previous secret keeps signing', { exact: false }).waitFor();
    expect(await rotated.getByLabel(`Signing secret for ${URL_B}`).inputValue()).toBe(await sealedSecretOf(URL_B));
    await page.keyboard.press('Escape');
    await rotated.waitFor({ state: 'detached' });

    await tabTo(page, `Send test event to ${URL_B}`);
    await page.keyboard.press('Enter');
    const log = page.getByRole('dialog', { name: `Deliveries to ${URL_B}` });
    await log.getByTestId('delivery-row').getByText('webhook.test').waitFor();
    await page.keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  it('fits a phone: the list and the add dialog, axe-clean', async () => {
    const phone = await openContext(browser, server.url, PHONE);
    try {
      await phone.page.goto('/backoffice/login?next=%2Fbackoffice%2Fsettings%2Fwebhooks');
      await signIn(phone.page, ADMIN.email, ADMIN.password);
      await phone.page.getByRole('listitem', { name: `Endpoint ${receiver.url}` }).waitFor();
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await expectAccessible(phone.page, 'webhooks on a phone');
      await phone.page.getByRole('button', { name: 'Add endpoint' }).click();
      await phone.page.getByRole('dialog', { name: 'Add webhook endpoint' }).waitFor();
      await expectAccessible(phone.page, 'add-endpoint dialog on a phone');
      await shot(phone.page, 'webhook-add-390');
      expect(phone.problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
