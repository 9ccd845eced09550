import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionService } from '../sessions/session-service.ts';
import { requirePermission, type UserActor } from '../shared/actor.ts';
import { CsrfRejectedError, NotAuthenticatedError } from '../shared/errors.ts';
import type { Permission } from '../shared/roles.ts';

export const SESSION_COOKIE = 'airkey_session';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Resolves the session cookie to the user as they are now (roles re-read on every request). */
export function sessionHook(sessions: SessionService) {
  return async function requireSession(request: FastifyRequest): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await sessions.resolve(token) : undefined;
    if (!session || !token) throw new NotAuthenticatedError();
    request.backofficeSession = { ...session, token };
    if (MUTATING.has(request.method)) {
      checkOrigin(request);
      const given = request.headers['x-csrf-token'];
      if (typeof given !== 'string' || !safeEqual(given, session.csrf_token)) throw new CsrfRejectedError();
    }
  };
}

/**
 * A cross-site request is refused even before the token is compared: browsers tell us with
 * Origin (and Sec-Fetch-Site), which a page on another origin cannot forge.
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

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
