import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Session } from '../../support/harness.ts';

export const HOOKS = '/backoffice/api/webhooks';
export const PUBLIC_URL = 'https://hooks.example.com/airkey';

/** A delivery as the endpoint's delivery log lists it, and a page of that log. */
export type Delivery = {
  id: string;
  event_type: string;
  status: string;
  next_attempt_at: string | null;
  attempts: unknown[];
};
export type DeliveryPage = { data: Delivery[]; next_cursor: string | null };

export type Webhook = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
};

/** Adds an endpoint as `session` and returns the answer's body (the secret included). */
export async function addWebhook(
  session: Session,
  body: Record<string, unknown> = {},
): Promise<{ webhook: Webhook; secret: string }> {
  const response = await session.request('POST', HOOKS, { url: PUBLIC_URL, ...body });
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 201 });
  return response.json();
}

/** POST /test on an endpoint as `session`: answered 202 with the queued delivery's id. */
export async function sendTest(session: Session, id: string): Promise<string> {
  const response = await session.request('POST', `${HOOKS}/${id}/test`);
  expect(response.statusCode).toBe(202);
  return response.json<{ delivery_id: string }>().delivery_id;
}

/** The `errors[].path` values of a 400 problem, so a test can say which field was named. */
export function fieldsOf(response: LightMyRequestResponse): string[] {
  return (response.json<{ errors?: Array<{ path: string }> }>().errors ?? []).map((each) => each.path);
}
