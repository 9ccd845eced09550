import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import {
  createdWebhookSchema,
  createWebhookBodySchema,
  deliveryPageSchema,
  deliveryParamsSchema,
  deliveryQuerySchema,
  rotatedSecretSchema,
  testDeliverySchema,
  updateWebhookBodySchema,
  webhookListSchema,
  webhookSchema,
} from '../../webhooks/webhook-schemas.ts';
import { idParamsSchema, problemResponses } from '../schemas.ts';
import { needs, signedInActor } from '../session-auth.ts';
import { knownId } from './backoffice-keys.ts';

/**
 * The webhook endpoints (docs/webhooks.md). WebhookService checks `api_keys:manage` itself; the
 * early `needs` answers 403 before the body is even validated.
 */
export function backofficeWebhookRoutes(app: FastifyInstance, services: Pick<Services, 'webhooks'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('api_keys:manage');
  const webhooks = services.webhooks.endpoints;

  api.get('/webhooks', {
    preHandler: manage,
    schema: { response: { 200: webhookListSchema, ...problemResponses(401, 403) } },
    handler: async (request) => webhooks.list(signedInActor(request)),
  });

  api.post('/webhooks', {
    preHandler: manage,
    schema: {
      body: createWebhookBodySchema,
      response: { 201: createdWebhookSchema, ...problemResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) => {
      const created = await webhooks.create(signedInActor(request), request.body);
      // Carries the signing secret, shown this once: no cache may keep it.
      reply.header('Cache-Control', 'no-store').code(201);
      return created;
    },
  });

  api.patch('/webhooks/:id', {
    preHandler: manage,
    schema: {
      params: idParamsSchema,
      body: updateWebhookBodySchema,
      response: { 200: webhookSchema, ...problemResponses(400, 401, 403, 404) },
    },
    handler: async (request) =>
      webhooks.update(signedInActor(request), knownId(request.params.id, 'webhook'), request.body),
  });

  api.delete('/webhooks/:id', {
    preHandler: manage,
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      await webhooks.delete(signedInActor(request), knownId(request.params.id, 'webhook'));
      return reply.code(204).send();
    },
  });

  api.post('/webhooks/:id/rotate-secret', {
    preHandler: manage,
    schema: { params: idParamsSchema, response: { 200: rotatedSecretSchema, ...problemResponses(401, 403, 404) } },
    handler: async (request, reply) => {
      const rotated = await webhooks.rotateSecret(signedInActor(request), knownId(request.params.id, 'webhook'));
      reply.header('Cache-Control', 'no-store');
      return rotated;
    },
  });

  api.post('/webhooks/:id/test', {
    preHandler: manage,
    schema: { params: idParamsSchema, response: { 202: testDeliverySchema, ...problemResponses(401, 403, 404, 409) } },
    handler: async (request, reply) => {
      const queued = await webhooks.sendTest(signedInActor(request), knownId(request.params.id, 'webhook'));
      reply.code(202);
      return queued;
    },
  });

  api.get('/webhooks/:id/deliveries', {
    preHandler: manage,
    schema: {
      params: idParamsSchema,
      querystring: deliveryQuerySchema,
      response: { 200: deliveryPageSchema, ...problemResponses(400, 401, 403, 404) },
    },
    handler: async (request) =>
      webhooks.deliveries(
        signedInActor(request),
        knownId(request.params.id, 'webhook'),
        request.query.limit,
        request.query.cursor,
      ),
  });

  api.post('/webhooks/:id/deliveries/:delivery_id/retry', {
    preHandler: manage,
    schema: { params: deliveryParamsSchema },
    handler: async (request, reply) => {
      await webhooks.retry(
        signedInActor(request),
        knownId(request.params.id, 'webhook'),
        knownId(request.params.delivery_id, 'delivery'),
      );
      return reply.code(202).send();
    },
  });
}
