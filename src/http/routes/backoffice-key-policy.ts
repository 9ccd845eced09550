import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { keyPolicySchema, updateKeyPolicyBodySchema } from '../../keys/policy/key-policy-schemas.ts';
import { problemResponses } from '../schemas.ts';
import { needs, signedInActor } from '../session-auth.ts';

/**
 * The signed-in user's tenant's key policy (docs/api.md). KeyPolicyService checks `api_keys:manage`
 * itself; the early `needs` answers 403 before the body is even validated.
 */
export function backofficeKeyPolicyRoutes(app: FastifyInstance, services: Pick<Services, 'keys'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('api_keys:manage');

  api.get('/key-policy', {
    preHandler: manage,
    schema: { response: { 200: keyPolicySchema, ...problemResponses(401, 403) } },
    handler: async (request) => {
      const actor = signedInActor(request);
      return services.keys.policies.get(actor, actor.tenantId);
    },
  });

  api.patch('/key-policy', {
    preHandler: manage,
    schema: { body: updateKeyPolicyBodySchema, response: { 200: keyPolicySchema, ...problemResponses(400, 401, 403) } },
    handler: async (request) => {
      const actor = signedInActor(request);
      return services.keys.policies.update(actor, actor.tenantId, request.body);
    },
  });
}
