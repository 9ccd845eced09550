import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { auditEvents } from '../../src/db/schema.ts';
import type { Harness } from './harness.ts';
import { cookieFrom } from './second-factors.ts';

/** The proxy every request of these tests comes through (TRUSTED_PROXIES); X-Forwarded-For names the client. */
export const PROXY = '127.0.0.1';
export const THROUGH_PROXY = { trustedProxies: [PROXY] };

/** A request's origin as the server sees it: from the trusted proxy, on behalf of `client`. */
function from(client: string, cookie?: string): { remoteAddress: string; headers: Record<string, string> } {
  return { remoteAddress: PROXY, headers: { 'x-forwarded-for': client, ...(cookie ? { cookie } : {}) } };
}

/** A password given at the door by `client`, with a cookie the browser holds if any. */
export function passwordFrom(
  app: FastifyInstance,
  client: string,
  email: string,
  password: string,
  cookie?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/backoffice/api/session',
    payload: { email, password },
    ...from(client, cookie),
  });
}

/** The second-factor step by `client` with a pending cookie. */
export function codeFrom(
  app: FastifyInstance,
  client: string,
  pending: string,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/backoffice/api/session/second-factor',
    payload: body,
    ...from(client, pending),
  });
}

/** The password step by `client`: its pending cookie, or fails the test. */
export async function pendingFrom(
  app: FastifyInstance,
  client: string,
  email: string,
  password: string,
): Promise<string> {
  const response = await passwordFrom(app, client, email, password);
  const pending = cookieFrom(response, 'airkey_pending');
  if (response.statusCode !== 200 || !pending)
    throw new Error(`no pending step: ${response.statusCode} ${response.body}`);
  return pending;
}

/** How many responses had each status, e.g. `{401: 5, 429: 45}`. */
export function statusCounts(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
  return counts;
}

/** The account's `user.sign_in_locked` entries, once the audits written after the answers are in. */
export async function locksOf(h: Harness, userId: string) {
  await h.services.signIn.signIns.attemptsSettled();
  return h.services.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, 'user.sign_in_locked'), eq(auditEvents.targetId, userId)));
}
