import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { reauthenticateBodySchema, sessionSchema } from '../../sessions/session-schemas.ts';
import { problemResponses } from '../schemas.ts';
import { clearSessionCookie } from '../session-cookies.ts';
import { clientContext, relyingParty, sessionHook, signedInActor } from '../session-auth.ts';
import { startSession } from './backoffice-sign-in.ts';

/** Who am I, re-authenticate, sign out: open to an enrolment-only session too. */
export function backofficeSessionRoutes(app: FastifyInstance, services: Pick<Services, 'signIn' | 'config'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const requireSession = sessionHook(services.signIn.sessions, 'open');

  api.get('/session', {
    onRequest: requireSession,
    schema: { response: { 200: sessionSchema, ...problemResponses(401) } },
    handler: (request) => {
      const { user, csrf_token, enrolment_required, second_factor_methods, reauthenticated_until, signed_in_with } =
        request.backofficeSession!;
      return { user, csrf_token, enrolment_required, second_factor_methods, reauthenticated_until, signed_in_with };
    },
  });

  api.post('/session/reauthenticate', {
    onRequest: requireSession,
    schema: {
      body: reauthenticateBodySchema,
      response: { 200: sessionSchema, ...problemResponses(400, 401, 403, 409, 429) },
    },
    handler: async (request, reply) => {
      const renewed = await services.signIn.signIns.reauthenticate(
        signedInActor(request),
        request.body,
        clientContext(request),
        () => relyingParty(request, services.config.publicOrigin),
      );
      return startSession(request, reply, renewed);
    },
  });

  api.delete('/session', {
    onRequest: requireSession,
    handler: async (request, reply) => {
      await services.signIn.sessions.signOut(request.backofficeSession!.token);
      clearSessionCookie(request, reply);
      return reply.code(204).send();
    },
  });
}
