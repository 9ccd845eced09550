import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import type { Harness, Session } from './harness.ts';

/** A TOTP code as an authenticator app computes it (otpauth, RFC 6238), at the harness's clock. */
export function totpCode(secret: string, atMs: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: atMs,
  });
}

/** Adds an authenticator app through the Security endpoints; returns its secret and the recovery codes shown. */
export async function enrolTotp(h: Harness, session: Session): Promise<{ secret: string; recoveryCodes: string[] }> {
  const begun = await session.request('POST', '/backoffice/api/me/totp');
  if (begun.statusCode !== 200) throw new Error(`totp enrolment failed: ${begun.statusCode} ${begun.body}`);
  const { secret } = begun.json<{ secret: string }>();
  const confirmed = await session.request('POST', '/backoffice/api/me/totp/confirm', {
    code: totpCode(secret, h.clock.nowMs()),
  });
  if (confirmed.statusCode !== 200)
    throw new Error(`totp confirmation failed: ${confirmed.statusCode} ${confirmed.body}`);
  // The confirming code's step is used up: tests sign in with a later one.
  h.clock.advance(30_000);
  return { secret, recoveryCodes: confirmed.json<{ recovery_codes: string[] }>().recovery_codes };
}

/** The cookie header of a named cookie a response set. */
export function cookieFrom(response: LightMyRequestResponse, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name);
  return cookie ? `${name}=${cookie.value}` : undefined;
}

/** The password step: the pending cookie it set (a user with a second factor), or fails the test. */
export async function passwordStep(h: Harness, email: string, password: string, client?: string): Promise<string> {
  const response = await h.signInAttempt(email, password, client);
  const pending = cookieFrom(response, 'airkey_pending');
  if (response.statusCode !== 200 || !pending)
    throw new Error(`no pending step: ${response.statusCode} ${response.body}`);
  return pending;
}

/** The second-factor step with a pending cookie. */
export function secondFactorStep(
  h: Harness,
  pendingCookie: string,
  body: Record<string, unknown>,
  client?: string,
): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url: '/backoffice/api/session/second-factor',
    headers: { cookie: pendingCookie },
    payload: body,
    ...(client === undefined ? {} : { remoteAddress: client }),
  });
}
