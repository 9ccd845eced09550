import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { tenantUsageSchema, usageQuerySchema, usageSchema } from '../../usage/usage-schemas.ts';
import { idParamsSchema, problemResponses } from '../schemas.ts';
import { needs, signedInActor } from '../session-auth.ts';

/**
 * Usage of one key and of the whole tenant (docs/api.md). UsageService checks `api_keys:manage` and
 * answers 404 for a malformed, unknown or foreign key id itself; `needs` is the early courtesy.
 */
export function backofficeUsageRoutes(app: FastifyInstance, services: Pick<Services, 'usage'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('api_keys:manage');

  api.get('/api-keys/:id/usage', {
    preHandler: manage,
    schema: {
      params: idParamsSchema,
      querystring: usageQuerySchema,
      response: { 200: usageSchema, ...problemResponses(400, 401, 403, 404) },
    },
    handler: async (request) =>
      services.usage.reports.forKey(signedInActor(request), request.params.id, request.query.window),
  });

  api.get('/usage', {
    preHandler: manage,
    schema: { querystring: usageQuerySchema, response: { 200: tenantUsageSchema, ...problemResponses(400, 401, 403) } },
    handler: async (request) => services.usage.reports.forTenant(signedInActor(request), request.query.window),
  });
}
