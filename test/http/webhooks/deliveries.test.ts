import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEvents } from '../../../src/db/webhook-tables.ts';
import { useHarness } from '../../support/use.ts';
import { expectProblem } from '../../support/problems.ts';
import { WEBHOOK_TEST_CONFIG, addWebhook, HOOKS, sendTest, type DeliveryPage } from '../../support/webhook-kit.ts';

/** POST /test and the delivery log (docs/api.md, docs/webhooks.md): what is recorded, and how the log pages. */
describe('test events and the delivery log', () => {
  const h = useHarness({ config: WEBHOOK_TEST_CONFIG });

  it('queues a webhook.test event for that endpoint only, pending in its log', async () => {
    const admin = await h.signedIn();
    // Nothing listens on port 9 (discard): the delivery waits for its next attempt.
    const { webhook } = await addWebhook(admin, { url: 'http://127.0.0.1:9/hooks', events: ['api_key.created'] });
    const { webhook: other } = await addWebhook(admin, { url: 'http://127.0.0.1:9/other' });
    const deliveryId = await sendTest(admin, webhook.id);
    const log = await admin.request('GET', `${HOOKS}/${webhook.id}/deliveries`);
    expect(log.statusCode).toBe(200);
    expect(log.json<DeliveryPage>()).toEqual({
      data: [
        {
          id: deliveryId,
          event_type: 'webhook.test',
          status: 'pending',
          created_at: expect.stringMatching(/Z$/) as string,
          next_attempt_at: expect.stringMatching(/Z$/) as string,
          attempts: expect.any(Array) as unknown[],
        },
      ],
      next_cursor: null,
    });
    expect((await admin.request('GET', `${HOOKS}/${other.id}/deliveries`)).json()).toEqual({
      data: [],
      next_cursor: null,
    });
  });

  it('writes the test event body with the tenant, the actor and the endpoint, and no secret', async () => {
    const admin = await h.signedIn();
    const { webhook, secret } = await addWebhook(admin);
    const deliveryId = await sendTest(admin, webhook.id);
    const [row] = await h.services.database.db
      .select({ body: webhookEvents.body })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, deliveryId));
    expect(row!.body).toMatchObject({
      type: 'webhook.test',
      data: {
        tenant: { id: admin.tenantId },
        actor: { type: 'user', id: admin.userId, email: admin.email },
        webhook: { id: webhook.id, url: webhook.url },
      },
    });
    expect(JSON.stringify(row!.body)).not.toContain(secret.slice(6));
  });

  it('refuses a test event to a disabled endpoint with 409 webhook_disabled', async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin);
    await admin.request('PATCH', `${HOOKS}/${webhook.id}`, { enabled: false });
    expectProblem(await admin.request('POST', `${HOOKS}/${webhook.id}/test`), 409, 'webhook_disabled');
    expect((await admin.request('GET', `${HOOKS}/${webhook.id}/deliveries`)).json<DeliveryPage>().data).toEqual([]);
  });

  it('lists deliveries newest first, page by page with next_cursor', async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin);
    const sent: string[] = [];
    for (let n = 0; n < 5; n++) sent.push(await sendTest(admin, webhook.id));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await admin.request('GET', `${HOOKS}/${webhook.id}/deliveries?limit=2${query}`);
      expect(response.statusCode).toBe(200);
      const page = response.json<DeliveryPage>();
      seen.push(...page.data.map((delivery) => delivery.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...sent].reverse());
  });

  it("refuses one endpoint's cursor on another endpoint with 400", async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin);
    const { webhook: other } = await addWebhook(admin);
    for (let n = 0; n < 2; n++) await sendTest(admin, webhook.id);
    const page = (await admin.request('GET', `${HOOKS}/${webhook.id}/deliveries?limit=1`)).json<DeliveryPage>();
    const reused = await admin.request(
      'GET',
      `${HOOKS}/${other.id}/deliveries?cursor=${encodeURIComponent(page.next_cursor!)}`,
    );
    expectProblem(reused, 400, 'invalid_request');
  });
});
