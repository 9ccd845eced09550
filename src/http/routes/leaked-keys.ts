import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { leakReceiptSchema, leakReportSchema } from '../../keys/key-schemas.ts';
import { problemContent } from '../openapi.ts';

/**
 * `POST /api/v1/leaked-keys` (docs/api.md): registered in its own scope, outside the key-check hook of
 * the other /api/v1 routes, because whoever found a key need not hold one. LeakService owns the rules.
 */
export function leakedKeyRoutes(app: FastifyInstance, services: Pick<Services, 'keys'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/leaked-keys', {
    schema: {
      operationId: 'reportLeakedKeys',
      summary: 'Report leaked API keys',
      description:
        'Anyone who finds an airkey API key (in a repository, a log, a paste) may report it; no key is needed. ' +
        'Every item that is a live key is disabled at once. The answer is 202 whether or not any item was a key.',
      tags: ['keys'],
      security: [],
      body: leakReportSchema,
      response: { 202: leakReceiptSchema, ...problemContent(400, 429, 503) },
    },
    handler: async (request, reply) => {
      const receipt = await services.keys.leaks.report(request.body, {
        address: request.client,
        userAgent: request.headers['user-agent'],
      });
      return reply.code(202).send(receipt);
    },
  });
}
