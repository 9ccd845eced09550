import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, signIn } from '../support/instances.ts';
import { startReceiver, type Receiver } from '../support/webhook-kit.ts';
import { spanWhere, startTracedServer, type TracedServer } from './trace-kit.ts';

/** OTLP's SpanKind numbering (SPAN_KIND_CLIENT). */
const CLIENT = 3;

let traced: TracedServer;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  traced = await startTracedServer({ WEBHOOK_ALLOW_PRIVATE: '1' });
}, 120_000);
afterAll(async () => {
  await traced?.stop();
  await receiver?.close();
});

describe('a traced webhook delivery', () => {
  it('is a client span of the POST to the receiver, with its status and no secret', async () => {
    const session = await signIn(traced.server, ADMIN.email);
    const created = await session.request<{ webhook: { id: string }; secret: string }>(
      traced.server,
      'POST',
      '/backoffice/api/webhooks',
      { url: receiver.url, events: ['webhook.test'] },
    );
    expect(created.status).toBe(201);
    const test = await session.request(
      traced.server,
      'POST',
      `/backoffice/api/webhooks/${created.body.webhook.id}/test`,
    );
    expect(test.status).toBe(202);

    const span = await spanWhere(
      traced.receiver,
      (s) => s.kind === CLIENT && s.attributes['url.full'] === receiver.url,
      'the delivery span',
    );
    expect(span.attributes['http.request.method']).toBe('POST');
    expect(span.attributes['http.response.status_code']).toBe(204);
    expect(receiver.received).toHaveLength(1);
    const exported = Buffer.concat(traced.receiver.bodies).toString('latin1');
    expect(exported).not.toContain(created.body.secret);
    expect(exported).not.toContain(created.body.secret.slice('whsec_'.length));
  });
});
