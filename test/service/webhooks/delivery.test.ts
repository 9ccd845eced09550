import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooks } from '../../../src/db/webhook-tables.ts';
import { newWebhookSecret } from '../../../src/webhooks/secret-box.ts';
import { freePort } from '../../support/free-port.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  answerWith,
  deliveriesOf,
  insertWebhook,
  startReceiver,
  verifyWith,
  WEBHOOK_TEST_CONFIG,
  type Receiver,
  type DeliveryAttempt,
} from '../../support/webhook-kit.ts';

/** Delivery guarantees (docs/webhooks.md (Guarantees)) against real receivers on 127.0.0.1 (WEBHOOK_RETRY_SCHEDULE=50ms,100ms). */
describe('webhook delivery', () => {
  let h: Harness;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };

  /** A tenant with one endpoint at `url`; `fire` emits a webhook.test event to it through the unit of work. */
  async function endpoint(url: string, options: Parameters<typeof insertWebhook>[4] = {}) {
    const tenant = await h.tenant();
    const hook = await insertWebhook(h.services.database.db, h.services.webhooks.secrets, tenant.id, url, options);
    const fire = () =>
      h.services.uow.inTransaction((_tx, _changed, emit) => {
        emit({ tenantId: tenant.id, type: 'webhook.test', data: {} });
        return Promise.resolve();
      });
    const deliveries = () => deliveriesOf(h.services.database.db, hook.id);
    const settled = (n = 1) =>
      waitFor(async () => (await deliveries()).filter((d) => d.status !== 'pending').length >= n, {
        timeoutMs: 8_000,
        what: 'the delivery to settle',
      });
    return { ...hook, fire, deliveries, settled };
  }
  const attemptsOf = async (hook: Awaited<ReturnType<typeof endpoint>>) =>
    (await hook.deliveries())[0]!.attempts as DeliveryAttempt[];

  beforeAll(async () => {
    h = await createHarness({ config: { ...WEBHOOK_TEST_CONFIG, webhookTimeoutMs: 400 } });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('retries after each wait of the schedule until a 2xx, keeping the same webhook-id', async () => {
    const target = await receiver((n, response) => response.writeHead(n < 2 ? 500 : 204).end());
    const hook = await endpoint(target.url);
    await hook.fire();
    await hook.settled();
    const [delivery] = await hook.deliveries();
    expect(delivery!.status).toBe('delivered');
    expect((delivery!.attempts as DeliveryAttempt[]).map((a) => [a.status_code, a.error])).toEqual([
      [500, null],
      [500, null],
      [204, null],
    ]);
    expect(new Set(target.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([`msg_${delivery!.id}`]));
    const [first, second, third] = target.received.map((r) => r.at);
    expect(second! - first!).toBeGreaterThanOrEqual(45);
    expect(third! - second!).toBeGreaterThanOrEqual(95);
    for (const request of target.received) expect(verifyWith(hook.secret, request).type).toBe('webhook.test');
  });

  it('fails the delivery after the last wait of the schedule', async () => {
    const target = await receiver(answerWith(503));
    const hook = await endpoint(target.url);
    await hook.fire();
    await hook.settled();
    expect((await hook.deliveries())[0]!.status).toBe('failed');
    expect((await attemptsOf(hook)).map((a) => a.status_code)).toEqual([503, 503, 503]);
  });

  it('disables the endpoint as gone on a 410 and stops its pending deliveries', async () => {
    const target = await receiver(answerWith(410));
    const hook = await endpoint(target.url);
    await hook.fire();
    await hook.settled();
    const [row] = await h.services.database.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect([row!.enabled, row!.disabledReason]).toEqual([false, 'gone']);
    expect((await hook.deliveries())[0]!.status).toBe('failed');
    expect(target.received).toHaveLength(1);
    // The event commits with the deliveries it causes: none for a disabled endpoint, so nothing
    // is left for the worker to send.
    await hook.fire();
    expect(await hook.deliveries()).toHaveLength(1);
    expect(target.received).toHaveLength(1);
  });

  it('does not follow a redirect: the attempt records it and the other address gets nothing', async () => {
    const elsewhere = await receiver();
    const target = await receiver(answerWith(307, { location: elsewhere.url }));
    const hook = await endpoint(target.url);
    await hook.fire();
    await hook.settled();
    expect((await attemptsOf(hook)).map((a) => [a.status_code, a.error])).toEqual([
      [307, 'redirect'],
      [307, 'redirect'],
      [307, 'redirect'],
    ]);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer within WEBHOOK_TIMEOUT_MS (timeout)', async () => {
    const target = await receiver(() => undefined);
    const hook = await endpoint(target.url);
    await hook.fire();
    await hook.settled();
    const attempts = await attemptsOf(hook);
    expect(attempts.map((a) => [a.status_code, a.error])).toEqual([
      [null, 'timeout'],
      [null, 'timeout'],
      [null, 'timeout'],
    ]);
    for (const attempt of attempts) expect(attempt.duration_ms).toBeGreaterThanOrEqual(380);
  });

  it('records connection_refused when nothing listens', async () => {
    const hook = await endpoint(`http://127.0.0.1:${await freePort()}/hook`);
    await hook.fire();
    await hook.settled();
    expect((await attemptsOf(hook)).map((a) => a.error)).toEqual([
      'connection_refused',
      'connection_refused',
      'connection_refused',
    ]);
  });

  it('signs with the new and the rotated-out secret for 24 hours, each verifiable alone', async () => {
    const target = await receiver();
    const previous = newWebhookSecret();
    const hook = await endpoint(target.url, {
      previousSecret: previous,
      previousUntil: new Date(h.clock.now().getTime() + 86_400_000),
    });
    await hook.fire();
    await hook.settled();
    const [request] = target.received;
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWith(hook.secret, request!).type).toBe('webhook.test');
    expect(verifyWith(previous, request!).type).toBe('webhook.test');
    expect(() => verifyWith(newWebhookSecret(), request!)).toThrow();
  });

  it('signs with the new secret only once the rotated-out one has lapsed', async () => {
    const target = await receiver();
    const previous = newWebhookSecret();
    const hook = await endpoint(target.url, {
      previousSecret: previous,
      previousUntil: new Date(h.clock.now().getTime() - 1),
    });
    await hook.fire();
    await hook.settled();
    const [request] = target.received;
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyWith(hook.secret, request!).type).toBe('webhook.test');
    expect(() => verifyWith(previous, request!)).toThrow();
  });
});
