import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { flightIdSchema, flightPageSchema, flightQuerySchema, flightSchema } from '../../flights/flight-schemas.ts';
import type { Principal } from '../../keys/key-schemas.ts';
import { NotAuthenticatedError } from '../../shared/errors.ts';
import { apiKeyHook } from '../api-key-auth.ts';
import { principalSchema } from '../../keys/key-schemas.ts';
import { problemResponses } from '../schemas.ts';

const security: Array<Record<string, string[]>> = [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }];
const keyProblems = problemResponses(400, 401, 403, 429, 503);

/** `/api/v1`: every route behind the key check (SPEC §5). */
export async function publicApiRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // onRequest, not preHandler: a request without a valid key learns nothing about validation.
  api.addHook('onRequest', apiKeyHook(services.keyCheck));

  api.get('/flights', {
    schema: {
      summary: 'List flights',
      description: 'Flights ordered by scheduled departure, then id. All times are UTC. Page with next_cursor.',
      tags: ['flights'],
      security,
      querystring: flightQuerySchema,
      response: { 200: flightPageSchema, ...keyProblems },
    },
    handler: async (request) => services.flights.list(principal(request), request.query),
  });

  api.get('/flights/:id', {
    schema: {
      summary: 'Get one flight',
      tags: ['flights'],
      security,
      params: flightIdSchema,
      response: { 200: flightSchema, ...problemResponses(400, 401, 403, 404, 429, 503) },
    },
    handler: async (request) => services.flights.get(principal(request), request.params.id),
  });

  api.get('/whoami', whoamiRoute);
}

/** The whoami route: its schema and handler. */
export const whoamiRoute = {
  schema: {
    summary: 'Who this key acts as',
    description: 'The tenant, the key, who it acts as and its permissions now.',
    tags: ['keys'],
    security,
    response: { 200: principalSchema, ...keyProblems },
  },
  handler: whoamiHandler,
};

// Synchronous: Fastify sends a returned value directly, with no promise to settle.
function whoamiHandler(request: FastifyRequest, _reply: FastifyReply): Principal {
  return principal(request);
}

function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new NotAuthenticatedError();
  return request.principal;
}
