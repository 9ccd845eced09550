import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import {
  apiKeySchema,
  createdKeySchema,
  createKeyBodySchema,
  keyListSchema,
  rolledKeySchema,
  rollKeyBodySchema,
  updateKeyBodySchema,
} from '../../keys/key-schemas.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { isUuid } from '../../shared/ids.ts';
import { idParamsSchema, problemResponses } from '../schemas.ts';
import { needs, signedInActor } from '../session-auth.ts';

/**
 * The API-key endpoints (docs/api.md). KeyService checks `api_keys:manage` itself; the early `needs`
 * answers 403 before the body is even validated.
 */
export function backofficeKeyRoutes(app: FastifyInstance, services: Pick<Services, 'keys'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('api_keys:manage');

  api.get('/api-keys', {
    preHandler: manage,
    schema: { response: { 200: keyListSchema, ...problemResponses(401, 403) } },
    handler: async (request) => services.keys.lifecycle.list(signedInActor(request)),
  });

  api.post('/api-keys', {
    preHandler: manage,
    schema: { body: createKeyBodySchema, response: { 201: createdKeySchema, ...problemResponses(400, 401, 403, 409) } },
    handler: async (request, reply) => {
      const created = await services.keys.lifecycle.create(signedInActor(request), request.body);
      // The only response that ever carries a secret: no cache may keep it.
      reply.header('Cache-Control', 'no-store').code(201);
      return created;
    },
  });

  api.patch('/api-keys/:id', {
    preHandler: manage,
    schema: {
      params: idParamsSchema,
      body: updateKeyBodySchema,
      response: { 200: apiKeySchema, ...problemResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request) =>
      services.keys.lifecycle.update(signedInActor(request), knownId(request.params.id, 'API key'), request.body),
  });

  api.post('/api-keys/:id/roll', {
    preHandler: manage,
    schema: {
      params: idParamsSchema,
      body: rollKeyBodySchema,
      response: { 201: rolledKeySchema, ...problemResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => {
      const rolled = await services.keys.rolls.roll(
        signedInActor(request),
        knownId(request.params.id, 'API key'),
        request.body.overlap,
        { expiresAt: request.body.expires_at },
      );
      // Carries the new secret, like a creation: no cache may keep it.
      reply.header('Cache-Control', 'no-store').code(201);
      return rolled;
    },
  });

  // No body: the key's current quota period starts over (docs/keys.md (Quotas)).
  api.post('/api-keys/:id/quota/reset', {
    preHandler: manage,
    schema: { params: idParamsSchema, response: { 200: apiKeySchema, ...problemResponses(400, 401, 403, 404) } },
    handler: async (request) =>
      services.keys.lifecycle.resetQuota(signedInActor(request), knownId(request.params.id, 'API key')),
  });

  api.delete('/api-keys/:id', {
    preHandler: manage,
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      await services.keys.lifecycle.delete(signedInActor(request), knownId(request.params.id, 'API key'));
      return reply.code(204).send();
    },
  });
}

/** A malformed id names nothing: 404, like an unknown or foreign one. */
export function knownId(id: string, what: string): string {
  if (!isUuid(id)) throw new NotFoundError(what);
  return id;
}
