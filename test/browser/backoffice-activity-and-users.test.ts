import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, openContext, shot, signIn } from './browser-kit.ts';
import { ADMIN, adminActor, browser, CREW, page, server, useBackOffice } from './backoffice-story.ts';

/** The Activity view and the Users page in Chromium, and what a non-admin sees. */
describe('back office in Chromium: activity and users', () => {
  useBackOffice({ signedIn: true });
  beforeAll(async () => {
    // The scene the Activity view reports on: a key created, then deleted, by the admin.
    const actor = await adminActor();
    const { api_key } = await server.services.keys.lifecycle.create(actor, { name: 'Crew roster sync' });
    await server.services.keys.lifecycle.delete(actor, api_key.id);
    await page.reload();
  });

  it('shows who did what in the Activity view', async () => {
    await page.getByRole('tab', { name: 'Activity' }).click();
    const table = page.getByRole('table', { name: 'Activity' });
    await table.getByText('Deleted API key “Crew roster sync”', { exact: false }).waitFor();
    await table.getByText('Created API key “Crew roster sync”', { exact: false }).waitFor();
    expect(await table.getByText(ADMIN.email).count()).toBeGreaterThan(2);
    await shot(page, 'activity-1280');
    await expectAccessible(page, 'activity');
    await page.getByRole('tab', { name: 'Keys' }).click();
  });

  it('adds a user with a role on the Users page', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('E-mail').fill(CREW.email);
    await dialog.getByLabel('Name').fill('Casey Crew');
    await dialog.getByLabel('Initial password').fill(CREW.password);
    await dialog.getByRole('checkbox', { name: 'Operations' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Crew' }).check();
    await expectAccessible(page, 'add-user dialog');
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await dialog.waitFor({ state: 'detached' });
    const crewRow = page.getByRole('table', { name: 'Users' }).locator('tr', { hasText: CREW.email });
    await crewRow.getByText('Crew', { exact: true }).waitFor();

    await page.getByRole('button', { name: `Change roles of ${CREW.email}` }).click();
    const roles = page.getByRole('dialog', { name: 'Change roles' });
    await roles.getByRole('checkbox', { name: 'Operations' }).check();
    await roles.getByRole('button', { name: 'Save roles' }).click();
    await roles.waitFor({ state: 'detached' });
    await crewRow.getByText('Operations', { exact: true }).waitFor();
    await shot(page, 'users-1280');
    await expectAccessible(page, 'users');
  });

  it('shows a non-admin the 403 page naming the role needed', async () => {
    const crew = await openContext(browser, server.url);
    try {
      await crew.page.goto('/backoffice/login?next=%2Fbackoffice%2Fsettings%2Fapi-keys');
      await signIn(crew.page, CREW.email, CREW.password);
      await crew.page.getByText('You don’t have access to this page').waitFor();
      expect(await crew.page.getByRole('alert').textContent()).toContain('System Administrator');
      expect(await crew.page.getByRole('switch').count()).toBe(0);
      const direct = await crew.page.goto('/backoffice/settings/api-keys');
      expect(direct?.status()).toBe(403);
      await crew.page.getByText('This page needs the System Administrator role').waitFor();
      await shot(crew.page, 'forbidden-1280');
      await expectAccessible(crew.page, '403 page');
      expect(crew.problems).toEqual([]);
    } finally {
      await crew.context.close();
    }
  });
});
