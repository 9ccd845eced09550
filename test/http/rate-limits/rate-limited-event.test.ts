import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../../src/db/webhook-tables.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { createKeyWithLimit, whoamiStatuses } from '../../support/rate-limit-kit.ts';
import {
  insertWebhook,
  startReceiver,
  verifyWith,
  WEBHOOK_TEST_CONFIG,
  type Receiver,
} from '../../support/webhook-kit.ts';

const START = '2026-11-22T12:00:15Z';

/** docs/webhooks.md: `api_key.rate_limited`, at most once per key per window, the first time it is refused. */
describe('the api_key.rate_limited event', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    h = await createHarness({ now: START, config: WEBHOOK_TEST_CONFIG });
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  const eventsOf = async (tenantId: string) =>
    h.services.database.db
      .select({ body: webhookEvents.body })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.tenantId, tenantId), eq(webhookEvents.type, 'api_key.rate_limited')));

  it('is recorded once for a window however many refusals follow, and again in the next window', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret: signing } = await insertWebhook(
      h.services.database.db,
      h.services.webhooks.secrets,
      admin.tenantId,
      receiver.url,
      { events: ['api_key.rate_limited'] },
    );
    const { api_key, secret } = await createKeyWithLimit(admin, { requests: 1, window: '1m' });
    expect(await whoamiStatuses(h, secret, 4)).toEqual([200, 429, 429, 429]);
    await expect.poll(async () => (await eventsOf(admin.tenantId)).length).toBe(1);
    const [event] = await eventsOf(admin.tenantId);
    expect(event!.body).toMatchObject({
      type: 'api_key.rate_limited',
      data: {
        api_key: { id: api_key.id, rate_limit: { requests: 1, window: '1m' } },
        rate_limit: { requests: 1, window: '1m' },
        window_start: '2026-11-22T12:00:00.000Z',
        window_end: '2026-11-22T12:01:00.000Z',
        actor: { type: 'system' },
      },
    });
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    expect(JSON.stringify(verifyWith(signing, receiver.received[0]!))).not.toContain(secret);

    h.clock.set('2026-11-22T12:01:05Z');
    expect(await whoamiStatuses(h, secret, 3)).toEqual([200, 429, 429]);
    await expect.poll(async () => (await eventsOf(admin.tenantId)).length).toBe(2);
  });

  it('is announced by one instance only: a second instance reporting the same window records nothing', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { api_key } = await createKeyWithLimit(admin, { requests: 1, window: '1h' });
    const limit = { requests: 1, window: '1h' } as const;
    // Each instance reports its own first refusal; the shared row lets one of them announce it.
    const notices = await Promise.all([
      h.services.limits.rateLimitNotices.notice(api_key.id, limit, 3600),
      h.services.limits.rateLimitNotices.notice(api_key.id, limit, 3600),
    ]);
    expect(notices.filter(Boolean)).toHaveLength(1);
  });
});
