import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { CreatedWebhook, TestDelivery, WebhookEventType } from '@contracts';
import type { LightMyRequestResponse } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { Db } from '../../src/db/handle.ts';
import { webhookDeliveries, webhookEvents, webhooks } from '../../src/db/webhook-tables.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/shared/event-types.ts';
import { newWebhookSecret, type SecretBox } from '../../src/webhooks/secret-box.ts';
import { eq } from 'drizzle-orm';
import type { Session } from './harness.ts';

/**
 * The webhook test kit: endpoints added through the back-office routes or written directly, real
 * receivers on 127.0.0.1, signatures checked with the reference implementation, and what is stored.
 * Bodies and answers are typed from the contracts the back office reads (@contracts).
 */
export type { DeliveryAttempt, DeliveryPage, DeliveryView } from '@contracts';

export const HOOKS = '/backoffice/api/webhooks';
export const PUBLIC_URL = 'https://hooks.example.com/airkey';

/** Adds an endpoint as `session` and returns the answer's body (the secret included). */
export async function addWebhook(session: Session, body: Record<string, unknown> = {}): Promise<CreatedWebhook> {
  const response = await session.request('POST', HOOKS, { url: PUBLIC_URL, ...body });
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 201 });
  return response.json<CreatedWebhook>();
}

/** POST /test on an endpoint as `session`: answered 202 with the queued delivery's id. */
export async function sendTest(session: Session, id: string): Promise<string> {
  const response = await session.request('POST', `${HOOKS}/${id}/test`);
  expect(response.statusCode).toBe(202);
  return response.json<TestDelivery>().delivery_id;
}

/** The `errors[].path` values of a 400 problem, so a test can say which field was named. */
export function fieldsOf(response: LightMyRequestResponse): string[] {
  return (response.json<{ errors?: Array<{ path: string }> }>().errors ?? []).map((each) => each.path);
}

/** One POST a receiver got: its headers, its raw body and the moment it came. */
export type Received = { headers: IncomingHttpHeaders; body: string; at: number };

/** How a receiver answers the n-th request (from 0): a status, or nothing at all (a hung receiver). */
export type Answer = (n: number, response: ServerResponse) => void;

export const answerWith =
  (status: number, headers: Record<string, string> = {}): Answer =>
  (_n, response) => {
    response.writeHead(status, headers).end();
  };

/** A real HTTP receiver on 127.0.0.1 that records every request. */
export async function startReceiver(answer: Answer = answerWith(204), port = 0) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const n = received.length;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      answer(n, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    received,
    port: boundPort,
    url: `http://127.0.0.1:${boundPort}/hook`,
    /** The parsed bodies, in arrival order. */
    bodies: () => received.map((r) => JSON.parse(r.body) as WebhookBody),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A delivered body (docs/webhooks.md): the event's type, its instant, the tenant and the event's data. */
export type WebhookBody = {
  type: WebhookEventType;
  timestamp: string;
  data: {
    tenant: { id: string; slug: string };
    api_key?: Record<string, unknown> & { id: string };
    actor?: { type: string; id: string | null; email: string | null };
    [field: string]: unknown;
  };
};

/**
 * An endpoint row written directly (the endpoint routes are another part of the product); the
 * secret sealed with the services' own box, as the routes store it. Returns the clear secret.
 */
export async function insertWebhook(
  db: Db,
  box: SecretBox,
  tenantId: string,
  url: string,
  options: { events?: WebhookEventType[]; previousSecret?: string; previousUntil?: Date } = {},
): Promise<{ id: string; secret: string }> {
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(webhooks)
    .values({
      tenantId,
      url,
      events: options.events ?? [...WEBHOOK_EVENT_TYPES],
      secretSealed: box.seal(secret),
      previousSecretSealed: options.previousSecret ? box.seal(options.previousSecret) : null,
      previousSecretUntil: options.previousUntil ?? null,
    })
    .returning({ id: webhooks.id });
  return { id: row!.id, secret };
}

/** Checks a request with the reference implementation; throws unless the signature holds. */
export function verifyWith(secret: string, request: Received): WebhookBody {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(request.body, headers) as WebhookBody;
}

/** Every delivery of an endpoint with its event type, as stored. */
export async function deliveriesOf(db: Db, webhookId: string) {
  return db
    .select({
      id: webhookDeliveries.id,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      type: webhookEvents.type,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.webhookId, webhookId));
}

/** Settings for tests: receivers on 127.0.0.1 and a short retry schedule. */
export const WEBHOOK_TEST_CONFIG = {
  webhookAllowPrivate: true,
  webhookRetryScheduleMs: [50, 100],
  webhookTimeoutMs: 1_000,
};
