import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RelyingParty } from '../second-factors/passkeys/passkeys.ts';
import { relyingPartyOf } from '../second-factors/passkeys/passkeys.ts';
import type { ClientContext, SessionService } from '../sessions/session-service.ts';
import { requirePermission, type UserActor } from '../shared/actor.ts';
import {
  CsrfRejectedError,
  NotAuthenticatedError,
  SecondFactorRequiredError,
  SessionExpiredError,
} from '../shared/errors.ts';
import type { Permission } from '../shared/roles.ts';
import { sessionCookieName } from './session-cookies.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Resolves the session cookie to the user as they are now (roles and factors re-read on every
 * request). An ended session is `session_expired`; an enrolment-only session (the tenant requires a
 * second factor the user lacks) opens only what `enrolment: 'open'` routes offer.
 */
export function sessionHook(sessions: SessionService, enrolment: 'open' | 'closed' = 'closed') {
  return async function requireSession(request: FastifyRequest): Promise<void> {
    const token = request.cookies[sessionCookieName(request)];
    const lookup = token ? await sessions.resolve(token) : { state: 'none' as const };
    if (lookup.state === 'ended') throw new SessionExpiredError();
    if (lookup.state !== 'live' || !token) throw new NotAuthenticatedError();
    const { session } = lookup;
    request.backofficeSession = { ...session, token };
    if (MUTATING.has(request.method)) {
      checkOrigin(request);
      const given = request.headers['x-csrf-token'];
      if (typeof given !== 'string' || !safeEqual(given, session.csrf_token)) throw new CsrfRejectedError();
    }
    if (session.enrolment_required && enrolment === 'closed') throw new SecondFactorRequiredError();
  };
}

/**
 * A cross-site request is refused even before the token is compared: browsers tell us with
 * Origin (and Sec-Fetch-Site), which a page on another origin cannot forge. The endpoints that
 * come before a session (sign-in, the second-factor step, passkeys) rely on this alone.
 */
export function checkOrigin(request: FastifyRequest): void {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') throw new CsrfRejectedError();
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw new CsrfRejectedError();
  }
  if (host !== request.headers.host) throw new CsrfRejectedError();
}

export function signedInActor(request: FastifyRequest): UserActor {
  const session = request.backofficeSession;
  if (!session) throw new NotAuthenticatedError();
  return session.actor;
}

export function needs(permission: Permission) {
  return function requireBackofficePermission(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    try {
      requirePermission(signedInActor(request), permission);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
}

/** Where a sign-in or a change came from: the client address as the key check sees it, and the browser. */
export function clientContext(request: FastifyRequest): ClientContext {
  return { address: request.client, userAgent: request.headers['user-agent'] ?? '' };
}

/** The passkeys' relying party for this request: PUBLIC_URL's origin when set, else the request's own. */
export function relyingParty(request: FastifyRequest, publicOrigin: string | undefined): RelyingParty {
  return relyingPartyOf(publicOrigin, `${request.https ? 'https' : 'http'}://${request.headers.host ?? ''}`);
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
