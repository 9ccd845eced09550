import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The back office's two cookies (docs/sign-in.md). Over https they carry the `__Host-` prefix: the
 * browser then only accepts them Secure, for this exact host and path `/`, so neither a sibling
 * subdomain nor a plain-http page can plant or overwrite one.
 */
const SESSION = 'airkey_session';
/** The second-factor step's cookie: it opens nothing but that step. */
const PENDING = 'airkey_pending';
const SESSION_PATH = '/backoffice';
const PENDING_PATH = '/backoffice/api/session';

export function sessionCookieName(request: FastifyRequest): string {
  return request.https ? `__Host-${SESSION}` : SESSION;
}

export function pendingCookieName(request: FastifyRequest): string {
  return request.https ? `__Host-${PENDING}` : PENDING;
}

function options(request: FastifyRequest, path: string, sameSite: 'lax' | 'strict', expires?: Date) {
  return {
    path: request.https ? '/' : path,
    httpOnly: true,
    sameSite,
    secure: request.https,
    ...(expires ? { expires } : {}),
  } as const;
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(sessionCookieName(request), token, options(request, SESSION_PATH, 'lax', expires));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName(request), options(request, SESSION_PATH, 'lax'));
}

export function setPendingCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(pendingCookieName(request), token, options(request, PENDING_PATH, 'strict', expires));
}

export function clearPendingCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(pendingCookieName(request), options(request, PENDING_PATH, 'strict'));
}

export function pendingToken(request: FastifyRequest): string | undefined {
  return request.cookies[pendingCookieName(request)];
}
