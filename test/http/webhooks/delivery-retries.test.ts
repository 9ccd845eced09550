import { describe, expect, it } from 'vitest';
import type { Session } from '../../support/harness.ts';
import { useHarness } from '../../support/use.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  answerWith,
  startReceiver,
  verifyWith,
  WEBHOOK_TEST_CONFIG,
  addWebhook,
  HOOKS,
  sendTest,
  type DeliveryView,
  type DeliveryPage,
} from '../../support/webhook-kit.ts';

/** Test events reaching real receivers on 127.0.0.1 through the delivery worker, and retry (docs/webhooks.md (Retries)). */
describe('test events at a receiver, and retry', () => {
  const h = useHarness({ config: WEBHOOK_TEST_CONFIG });

  it('delivers the test event to a real receiver, signed with the secret shown at creation', async () => {
    const receiver = await startReceiver(answerWith(204));
    try {
      const admin = await h.signedIn();
      const { webhook, secret } = await addWebhook(admin, { url: receiver.url });
      const deliveryId = await sendTest(admin, webhook.id);
      const delivered = await deliveredLog(admin, webhook.id, 1);
      expect(delivered[0]).toMatchObject({ id: deliveryId, status: 'delivered', next_attempt_at: null });
      expect(delivered[0]!.attempts).toEqual([
        { at: expect.any(String) as string, status_code: 204, error: null, duration_ms: expect.any(Number) as number },
      ]);
      expect(receiver.received).toHaveLength(1);
      const body = verifyWith(secret, receiver.received[0]!);
      expect(body).toMatchObject({ type: 'webhook.test', data: { webhook: { id: webhook.id } } });
      expect(receiver.received[0]!.headers['webhook-id']).toBe(`msg_${deliveryId}`);
    } finally {
      await receiver.close();
    }
  });

  it('retries a delivery: 202 and one more attempt now, with the same webhook-id, kept in the log', async () => {
    const receiver = await startReceiver(answerWith(204));
    try {
      const admin = await h.signedIn();
      const { webhook } = await addWebhook(admin, { url: receiver.url });
      const deliveryId = await sendTest(admin, webhook.id);
      await deliveredLog(admin, webhook.id, 1);
      const retry = await admin.request('POST', `${HOOKS}/${webhook.id}/deliveries/${deliveryId}/retry`);
      expect(retry.statusCode).toBe(202);
      const again = await deliveredLog(admin, webhook.id, 2);
      expect(again[0]).toMatchObject({ id: deliveryId, status: 'delivered' });
      expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([
        `msg_${deliveryId}`,
        `msg_${deliveryId}`,
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('signs with both the new and the old secret after a rotation', async () => {
    const receiver = await startReceiver(answerWith(204));
    try {
      const admin = await h.signedIn();
      const { webhook, secret: old } = await addWebhook(admin, { url: receiver.url });
      const rotated = await admin.request('POST', `${HOOKS}/${webhook.id}/rotate-secret`);
      const { secret } = rotated.json<{ secret: string }>();
      await sendTest(admin, webhook.id);
      await deliveredLog(admin, webhook.id, 1);
      expect(verifyWith(secret, receiver.received[0]!).type).toBe('webhook.test');
      expect(verifyWith(old, receiver.received[0]!).type).toBe('webhook.test');
    } finally {
      await receiver.close();
    }
  });

  it('retries a failed delivery once more after its schedule ran out', async () => {
    const receiver = await startReceiver(answerWith(500));
    try {
      const admin = await h.signedIn();
      const { webhook } = await addWebhook(admin, { url: receiver.url });
      const deliveryId = await sendTest(admin, webhook.id);
      const tries = WEBHOOK_TEST_CONFIG.webhookRetryScheduleMs.length + 1;
      await waitFor(async () => (await logOf(admin, webhook.id))[0]?.status === 'failed', {
        timeoutMs: 10_000,
        what: 'the delivery to fail',
      });
      expect((await logOf(admin, webhook.id))[0]!.attempts).toHaveLength(tries);
      const retry = await admin.request('POST', `${HOOKS}/${webhook.id}/deliveries/${deliveryId}/retry`);
      expect(retry.statusCode).toBe(202);
      await waitFor(async () => (await logOf(admin, webhook.id))[0]?.attempts.length === tries + 1, {
        timeoutMs: 10_000,
        what: 'one more attempt',
      });
      expect(receiver.received).toHaveLength(tries + 1);
    } finally {
      await receiver.close();
    }
  });

  async function logOf(session: Session, id: string): Promise<DeliveryView[]> {
    return (await session.request('GET', `${HOOKS}/${id}/deliveries`)).json<DeliveryPage>().data;
  }

  /** The log once its newest delivery is delivered with `attempts` attempts. */
  async function deliveredLog(session: Session, id: string, attempts: number): Promise<DeliveryView[]> {
    let log: DeliveryView[] = [];
    await waitFor(
      async () => {
        log = await logOf(session, id);
        return log[0]?.status === 'delivered' && log[0].attempts.length === attempts;
      },
      { timeoutMs: 10_000, what: `a delivery with ${attempts} attempt(s)` },
    );
    return log;
  }
});
