import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../app/services.ts';
import { pageSize } from '../../flights/flight-schemas.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { problemResponses, apiKeySchema, createKeyBodySchema, idParamsSchema, updateKeyBodySchema } from '../schemas.ts';
import { isUuid } from '../../shared/ids.ts';
import { actorOf, needs } from '../session-auth.ts';

const auditQuerySchema = z.object({
  limit: pageSize(200),
  cursor: z.string().max(512).optional(),
});

const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ type: z.enum(['user', 'system']), id: z.string().nullable(), email: z.string().nullable() }),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  detail: z.record(z.string(), z.unknown()),
});

/** The API-key endpoints and the audit trail (docs/api.md, back-office JSON API); `api_keys:manage` / `audit:read` only. */
export async function backofficeKeyRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('api_keys:manage');

  api.get('/api-keys', {
    preHandler: manage,
    schema: { response: { 200: z.object({ data: z.array(apiKeySchema), authority: z.enum(['creator', 'system']) }), ...problemResponses(401, 403) } },
    handler: async (request) => services.keys.list(actorOf(request)),
  });

  api.post('/api-keys', {
    preHandler: manage,
    schema: {
      body: createKeyBodySchema,
      response: { 201: z.object({ api_key: apiKeySchema, secret: z.string() }), ...problemResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) => {
      const created = await services.keys.create(actorOf(request), request.body);
      // The only response that ever carries a secret: no cache may keep it.
      reply.header('Cache-Control', 'no-store').code(201);
      return created;
    },
  });

  api.patch('/api-keys/:id', {
    preHandler: manage,
    schema: { params: idParamsSchema, body: updateKeyBodySchema, response: { 200: apiKeySchema, ...problemResponses(400, 401, 403, 404, 409) } },
    handler: async (request) => services.keys.setEnabled(actorOf(request), knownId(request.params.id, 'API key'), request.body.enabled),
  });

  api.delete('/api-keys/:id', {
    preHandler: manage,
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      await services.keys.delete(actorOf(request), knownId(request.params.id, 'API key'));
      return reply.code(204).send();
    },
  });

  api.get('/audit-events', {
    preHandler: needs('audit:read'),
    schema: {
      querystring: auditQuerySchema,
      response: { 200: z.object({ data: z.array(auditEventSchema), next_cursor: z.string().nullable() }), ...problemResponses(400, 401, 403) },
    },
    handler: async (request) => services.audit.list(actorOf(request).tenantId, request.query.limit, request.query.cursor),
  });
}

/** A malformed id names nothing: 404, like an unknown or foreign one. */
export function knownId(id: string, what: string): string {
  if (!isUuid(id)) throw new NotFoundError(what);
  return id;
}
