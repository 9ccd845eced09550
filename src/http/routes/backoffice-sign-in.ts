import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../app/services.ts';
import { secondFactorProofSchema, webauthnOptionsSchema } from '../../second-factors/second-factor-schemas.ts';
import type { OpenedSession } from '../../sessions/session-service.ts';
import {
  passkeySignInBodySchema,
  sessionSchema,
  signInBodySchema,
  signInResultSchema,
} from '../../sessions/session-schemas.ts';
import { problemResponses } from '../schemas.ts';
import {
  clearPendingCookie,
  pendingToken,
  sessionCookieName,
  setPendingCookie,
  setSessionCookie,
} from '../session-cookies.ts';
import { checkOrigin, clientContext, relyingParty } from '../session-auth.ts';

/** No body (the purpose follows from the cookies sent), or the purpose the page means. */
const passkeyOptionsBodySchema = z
  .strictObject({ purpose: z.enum(['sign_in', 'second_factor', 'reauthenticate']).optional() })
  .nullish();

/**
 * The endpoints that come before a session (docs/sign-in.md): the password, the second-factor
 * step, and passkeys. No session means no CSRF token: a cross-origin `Origin` is refused instead.
 */
export function backofficeSignInRoutes(app: FastifyInstance, services: Pick<Services, 'signIn' | 'config'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { signIns, sessions } = services.signIn;
  const { config } = services;
  const rp = (request: FastifyRequest) => relyingParty(request, config.publicOrigin);

  api.post('/session', {
    schema: { body: signInBodySchema, response: { 200: signInResultSchema, ...problemResponses(400, 401, 403, 429) } },
    handler: async (request, reply) => {
      checkOrigin(request);
      const result = await signIns.signInWithPassword(
        request.body.email,
        request.body.password,
        clientContext(request),
      );
      if (result.kind === 'signed_in') {
        await endHeldSession(request, sessions);
        return startSession(request, reply, result.session);
      }
      setPendingCookie(request, reply, result.token, result.expiresAt);
      return result.step;
    },
  });

  api.post('/session/second-factor', {
    schema: {
      body: secondFactorProofSchema,
      response: { 200: sessionSchema, ...problemResponses(400, 401, 403, 429) },
    },
    handler: async (request, reply) => {
      checkOrigin(request);
      const opened = await signIns.completeSecondFactor(
        pendingToken(request) ?? '',
        request.body,
        clientContext(request),
        () => rp(request),
      );
      clearPendingCookie(request, reply);
      await endHeldSession(request, sessions);
      return startSession(request, reply, opened);
    },
  });

  api.post('/session/passkey/options', {
    schema: {
      body: passkeyOptionsBodySchema,
      response: { 200: webauthnOptionsSchema, ...problemResponses(400, 401, 403, 409, 429) },
    },
    handler: async (request) => {
      checkOrigin(request);
      const token = request.cookies[sessionCookieName(request)];
      const lookup = token ? await sessions.resolve(token) : undefined;
      const actor = lookup?.state === 'live' ? lookup.session.actor : undefined;
      const who = { actor, pendingToken: pendingToken(request) };
      return signIns.passkeyOptions(who, request.body?.purpose, rp(request), clientContext(request));
    },
  });

  api.post('/session/passkey', {
    schema: {
      body: passkeySignInBodySchema,
      response: { 200: sessionSchema, ...problemResponses(400, 401, 403, 409, 429) },
    },
    handler: async (request, reply) => {
      checkOrigin(request);
      const opened = await signIns.signInWithPasskey(request.body.response, clientContext(request), rp(request));
      clearPendingCookie(request, reply);
      await endHeldSession(request, sessions);
      return startSession(request, reply, opened);
    },
  });
}

/**
 * A browser that signs in again gives up the session it held (ASVS 5.0 7.2.4): one browser, one
 * session, whoever the new one is for. Only after the new sign-in succeeded: a failed attempt
 * leaves the old session as it was.
 */
export async function endHeldSession(
  request: FastifyRequest,
  sessions: Pick<Services['signIn']['sessions'], 'signOut'>,
) {
  const held = request.cookies[sessionCookieName(request)];
  if (held) await sessions.signOut(held);
}

/** A new session's cookie (a cookie the browser brought is never adopted), and what the page may see. */
export function startSession(request: FastifyRequest, reply: FastifyReply, opened: OpenedSession) {
  const { token, expiresAt, ...signedIn } = opened;
  setSessionCookie(request, reply, token, expiresAt);
  return signedIn;
}
