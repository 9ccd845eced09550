import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { signInSettingsPatchSchema, signInSettingsSchema } from '../../tenants/sign-in-settings-schemas.ts';
import { ssoTestBodySchema, ssoTestResultSchema } from '../../sso/sso-schemas.ts';
import { idParamsSchema, problemResponses } from '../schemas.ts';
import { needs, signedInActor } from '../session-auth.ts';
import { knownId } from './backoffice-keys.ts';

/**
 * Who may get in, for administrators (docs/sign-in.md): ending people's sessions, resetting a
 * lost phone's factors, and the tenant's sign-in settings. The services check roles themselves.
 */
export function backofficeAccessRoutes(app: FastifyInstance, services: Pick<Services, 'signIn'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('users:manage');

  api.delete('/users/:id/sessions', {
    preHandler: manage,
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      const actor = signedInActor(request);
      await services.signIn.sessions.endForUser(actor, actor.tenantId, knownId(request.params.id, 'user'));
      return reply.code(204).send();
    },
  });

  api.delete('/users/:id/second-factors', {
    preHandler: manage,
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      const actor = signedInActor(request);
      await services.signIn.secondFactors.resetForUser(actor, actor.tenantId, knownId(request.params.id, 'user'));
      return reply.code(204).send();
    },
  });

  api.delete('/sessions', {
    preHandler: manage,
    handler: async (request, reply) => {
      const actor = signedInActor(request);
      await services.signIn.sessions.endForTenant(actor, actor.tenantId);
      return reply.code(204).send();
    },
  });

  api.get('/sign-in-settings', {
    preHandler: manage,
    schema: { response: { 200: signInSettingsSchema, ...problemResponses(401, 403) } },
    handler: async (request) => {
      const actor = signedInActor(request);
      return services.signIn.settings.get(actor, actor.tenantId);
    },
  });

  api.patch('/sign-in-settings', {
    preHandler: manage,
    schema: {
      body: signInSettingsPatchSchema,
      response: { 200: signInSettingsSchema, ...problemResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const actor = signedInActor(request);
      return services.signIn.settings.update(actor, actor.tenantId, request.body);
    },
  });

  // Discovery only: it changes nothing, so it needs no re-authentication.
  api.post('/sign-in-settings/sso/test', {
    preHandler: manage,
    schema: {
      body: ssoTestBodySchema,
      response: { 200: ssoTestResultSchema, ...problemResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const actor = signedInActor(request);
      return services.signIn.sso.test(actor, actor.tenantId, request.body?.issuer);
    },
  });
}
