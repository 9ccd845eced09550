import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { sessionSchema, signInBodySchema } from '../../users/user-schemas.ts';
import { problemResponses } from '../schemas.ts';
import { checkOrigin, SESSION_COOKIE, sessionHook } from '../session-auth.ts';

/** Sign in, who am I, sign out. */
export function backofficeSessionRoutes(app: FastifyInstance, services: Pick<Services, 'sessions'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const requireSession = sessionHook(services.sessions);

  api.post('/session', {
    schema: { body: signInBodySchema, response: { 200: sessionSchema, ...problemResponses(400, 401, 403, 429) } },
    handler: async (request, reply) => {
      // No session yet, so no CSRF token: the origin check alone stops login CSRF.
      checkOrigin(request);
      const { token, expiresAt, ...signedIn } = await services.sessions.signIn(
        request.body.email,
        request.body.password,
        request.client,
      );
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/backoffice',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.https,
        expires: expiresAt,
      });
      return signedIn;
    },
  });

  api.get('/session', {
    onRequest: requireSession,
    schema: { response: { 200: sessionSchema, ...problemResponses(401) } },
    handler: (request) => {
      const { user, csrf_token } = request.backofficeSession!;
      return { user, csrf_token };
    },
  });

  api.delete('/session', {
    onRequest: requireSession,
    handler: async (request, reply) => {
      await services.sessions.signOut(request.backofficeSession!.token);
      reply.clearCookie(SESSION_COOKIE, { path: '/backoffice' });
      return reply.code(204).send();
    },
  });
}
