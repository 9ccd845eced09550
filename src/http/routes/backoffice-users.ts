import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { createUserBodySchema, updateUserBodySchema, userListSchema, userSchema } from '../../users/user-schemas.ts';
import { idParamsSchema, problemResponses } from '../schemas.ts';
import { signedInActor, needs } from '../session-auth.ts';
import { knownId } from './backoffice-keys.ts';

/** Users of the tenant (docs/api.md, back-office JSON API); `users:manage` only. */
export function backofficeUserRoutes(app: FastifyInstance, services: Pick<Services, 'accounts' | 'signIn'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('users:manage');

  api.get('/users', {
    preHandler: manage,
    schema: { response: { 200: userListSchema, ...problemResponses(401, 403) } },
    handler: async (request) => ({ data: await services.accounts.users.list(signedInActor(request)) }),
  });

  api.post('/users', {
    preHandler: manage,
    schema: { body: createUserBodySchema, response: { 201: userSchema, ...problemResponses(400, 401, 403, 409) } },
    handler: async (request, reply) => {
      const actor = signedInActor(request);
      reply.code(201);
      return services.accounts.users.create(actor, actor.tenantId, request.body);
    },
  });

  api.patch('/users/:id', {
    preHandler: manage,
    schema: {
      params: idParamsSchema,
      body: updateUserBodySchema,
      response: { 200: userSchema, ...problemResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const actor = signedInActor(request);
      return services.accounts.users.update(actor, actor.tenantId, knownId(request.params.id, 'user'), request.body);
    },
  });

  api.delete('/users/:id', {
    preHandler: manage,
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      const actor = signedInActor(request);
      await services.accounts.users.delete(actor, actor.tenantId, knownId(request.params.id, 'user'));
      return reply.code(204).send();
    },
  });

  // The user's next SSO sign-in is found by e-mail again (docs/sso.md (Unlinking)).
  api.delete('/users/:id/sso-identity', {
    preHandler: manage,
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      const actor = signedInActor(request);
      await services.signIn.ssoAdmin.unlink(actor, actor.tenantId, knownId(request.params.id, 'user'));
      return reply.code(204).send();
    },
  });
}
