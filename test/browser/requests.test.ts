import { describe, expect, it } from 'vitest';
import type { RequestLogPage } from '../../src/request-log/request-log-schemas.ts';
import { recordFor } from '../support/request-log-kit.ts';
import { backofficeApi, DESKTOP, expectAccessible, openContext, PHONE, shot, signIn, whoami } from './browser-kit.ts';
import { ADMIN, browser, page, problems, row, server, useBackOffice } from './backoffice-story.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** The request log as a person sees it (docs/request-log.md): the Requests tab, a request's detail, a key's view. */
describe('requests in Chromium', { timeout: 120_000 }, () => {
  useBackOffice({ signedIn: true, clock: 'real', config: { usageFlushMs: 100 } });
  let keyId = '';

  it('lists the requests of the tenant’s keys, filters them and opens one with its trace id', async () => {
    const api = await backofficeApi(page);
    const created = await api<{ api_key: { id: string }; secret: string }>('POST', '/api-keys', {
      name: 'Crew roster sync',
    });
    keyId = created.body.api_key.id;
    for (let i = 0; i < 3; i++) expect((await whoami(server.url, created.body.secret)).status).toBe(200);
    await api('PATCH', `/api-keys/${keyId}`, { enabled: false });
    expect((await whoami(server.url, created.body.secret)).status).toBe(401);
    await api('PATCH', `/api-keys/${keyId}`, { enabled: true });
    // A traced request refused over the key's rate limit, as the hook records one.
    const tenantId = (await server.services.accounts.users.requireByEmail(ADMIN.email)).tenantId;
    server.services.requestLog.writer!.record({
      ...recordFor(tenantId, Date.now(), keyId),
      keyName: 'Crew roster sync',
      status: 429,
      outcome: 'rate_limited',
      address: '198.51.100.7',
      traceId: TRACE_ID,
    });
    await expect
      .poll(async () => (await api<RequestLogPage>('GET', `/request-log?key=${keyId}`)).body.data.length, {
        timeout: 10_000,
      })
      .toBe(5);

    await page.getByRole('tab', { name: 'Requests' }).click();
    const table = page.getByRole('table', { name: 'Requests' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);
    expect(await table.getByText('200 · OK').count()).toBe(3);
    expect(await table.getByText('401 · Key rejected').count()).toBe(1);
    expect(await table.getByText('GET /api/v1/whoami').count()).toBe(5);

    await page.getByRole('textbox', { name: 'Address or range' }).fill('198.51.100.0/24');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(await table.locator('tbody tr').textContent()).toContain('429 · Rate limited');
    await shot(page, 'requests-tab-1280');
    await expectAccessible(page, 'requests tab');
    await page.setViewportSize(PHONE);
    await shot(page, 'requests-tab-filtered-390');
    await page.setViewportSize(DESKTOP);

    await table.locator('tbody tr').getByRole('button').click();
    const detail = page.getByRole('dialog', { name: 'Request' });
    await detail.waitFor();
    expect(await detail.getByTestId('request-trace-id').textContent()).toBe(TRACE_ID);
    expect(await detail.textContent()).toContain('198.51.100.7');
    expect(await detail.textContent()).toContain('Crew roster sync');
    await shot(page, 'requests-detail-1280');
    await expectAccessible(page, 'request detail');
    await page.setViewportSize(PHONE);
    await shot(page, 'requests-detail-390');
    await page.setViewportSize(DESKTOP);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });

    // The export link carries the filters; what it downloads is the same entries, one a line.
    const href = await page.getByRole('link', { name: 'Export (NDJSON)' }).getAttribute('href');
    expect(href).toBe('/backoffice/api/request-log/export?address=198.51.100.0%2F24');
    const exported = await (await page.request.get(href!)).text();
    expect(
      exported
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { trace_id: string }).trace_id),
    ).toEqual([TRACE_ID]);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);
    // Times are UTC, as the table shows them: nothing happened after the end of next year.
    await page.getByLabel('From (UTC)').fill(`${new Date().getUTCFullYear() + 1}-12-31T23:59`);
    await page.getByText('No requests match.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);
  });

  it('shows a key’s latest requests in its view', async () => {
    await page.getByRole('tab', { name: 'Keys' }).click();
    await row('Crew roster sync').getByRole('button', { name: 'Crew roster sync', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'API key “Crew roster sync”' });
    const latest = drawer.getByRole('region', { name: 'Latest requests' });
    await expect.poll(() => latest.locator('tbody tr').count()).toBe(5);
    expect(await latest.getByText('429 · Rate limited').count()).toBe(1);
    await latest.scrollIntoViewIfNeeded();
    await shot(page, 'requests-key-view-1280');
    await page.setViewportSize(PHONE);
    await latest.scrollIntoViewIfNeeded();
    await shot(page, 'requests-key-view-390');
    await page.setViewportSize(DESKTOP);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  it('reads on a phone', async () => {
    const phone = await openContext(browser, server.url, PHONE);
    await phone.page.goto('/backoffice/login?next=%2Fbackoffice%2Fsettings%2Fapi-keys');
    await signIn(phone.page, ADMIN.email, ADMIN.password);
    await phone.page.getByRole('tab', { name: 'Requests' }).click();
    // One card per request on a phone, each opening the same detail.
    const cards = phone.page.getByRole('list', { name: 'Requests' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(5);
    expect(await cards.getByText('GET /api/v1/whoami').count()).toBe(5);
    await shot(phone.page, 'requests-tab-390');
    await expectAccessible(phone.page, 'requests tab on a phone');
    await phone.context.close();
    expect(problems).toEqual([]);
  });
});
