import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { flightIdSchema, flightPageSchema, flightQuerySchema, flightSchema } from '../../flights/flight-schemas.ts';
import { NotAuthenticatedError } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import { whoamiSchema } from '../../keys/key-schemas.ts';
import { limitsJson } from '../../limits/index.ts';
import { resourceMetadataUrl } from '../../oauth/resource-metadata.ts';
import { tokenWhoamiSchema } from '../../oauth/token-facts.ts';
import { FLIGHT_EXAMPLE, problemContent, WHOAMI_EXAMPLE } from '../openapi.ts';

const security: Array<Record<string, string[]>> = [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }];
const keyProblems = problemContent(400, 401, 403, 429, 503);

/** `/api/v1`: every route behind the key check (docs/api.md). */
export function publicApiRoutes(app: FastifyInstance, services: Pick<Services, 'flights' | 'oauth'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Its 401s name the RFC 9728 document (docs/oauth.md).
  api.decorateReply('resourceMetadata', resourceMetadataUrl(services.oauth.urls, '/api/v1'));
  // onRequest, not preHandler: a request without a valid key learns nothing about validation.
  api.addHook('onRequest', app.admissionHook);

  api.get('/flights', {
    schema: {
      operationId: 'listFlights',
      summary: 'List flights',
      description: 'Flights ordered by scheduled departure, then id. All times are UTC. Page with next_cursor.',
      tags: ['flights'],
      security,
      querystring: flightQuerySchema,
      response: {
        200: flightPageSchema
          .describe('One page of flights')
          .meta({ examples: [{ data: [FLIGHT_EXAMPLE], next_cursor: null }] }),
        ...keyProblems,
      },
    },
    handler: async (request) => services.flights.list(principal(request), request.query),
  });

  api.get('/flights/:id', {
    schema: {
      operationId: 'getFlight',
      summary: 'Get one flight',
      description: 'One flight of your tenant by id. All times are UTC.',
      tags: ['flights'],
      security,
      params: flightIdSchema,
      // 414: an id longer than the router's 100-character limit never reaches validation (found
      // by test/standards/generated-client.test.ts: it was undocumented).
      response: {
        200: flightSchema.describe('The flight').meta({ examples: [FLIGHT_EXAMPLE] }),
        ...problemContent(400, 401, 403, 404, 414, 429, 503),
      },
    },
    handler: async (request) => services.flights.get(principal(request), request.params.id),
  });

  api.get('/whoami', whoamiRoute);
}

/** The whoami route: its schema and handler. */
export const whoamiRoute = {
  schema: {
    operationId: 'whoami',
    summary: 'Who this key acts as',
    description:
      'The tenant, the key, who it acts as, its permissions now, and what its rate limit and quota leave (as this instance knows them). ' +
      'With an OAuth access token: `{tenant, credential: "oauth", app: {client_id, name}, acts_as, permissions}`.',
    tags: ['keys'],
    security,
    response: {
      200: whoamiSchema.describe('This key, what it may do and what it has left').meta({ examples: [WHOAMI_EXAMPLE] }),
      ...keyProblems,
    },
  },
  handler: whoamiHandler,
};

/**
 * whoami's body, serialised once per principal with no limits; a limited key's `limits` (new on
 * every request) replace that ending. The principal is the key cache's own object,
 * replaced (never changed) when the key, its tenant or its creator changes, so its body is too.
 * The route's compiled serializer made it: the schema still decides what leaves. Serialising on
 * every request is a large share of a whoami, as the `acts_as` union is checked by a validator
 * (docs/performance.md).
 */
const whoamiBodies = new WeakMap<Principal, string>();
const NO_LIMITS = { rate_limit: null, quota: null };
const NO_LIMITS_END = '"limits":{"rate_limit":null,"quota":null}}';

// Synchronous: Fastify sends the string as it is, with no promise to settle.
function whoamiHandler(request: FastifyRequest, reply: FastifyReply): void {
  const who = principal(request);
  let body = whoamiBodies.get(who);
  if (body === undefined) {
    // An access token's whoami (docs/oauth.md) has no key and no limits; a key's: the route
    // serializer returns a string, and `limits`, the schema's last property, ends the body.
    body =
      who.credential === 'oauth'
        ? latin1Json(JSON.stringify(tokenWhoamiSchema.parse(who)))
        : latin1Json(reply.serialize({ ...who, limits: NO_LIMITS }) as string);
    whoamiBodies.set(who, body);
  }
  const seen = request.limitsSeen;
  if (seen !== undefined) body = `${body.slice(0, -NO_LIMITS_END.length)}"limits":${limitsJson(seen)}}`;
  reply.type('application/json; charset=utf-8').send(body);
}

/**
 * The same JSON as one-byte text: characters beyond Latin-1 as `\u` escapes. The key's hint
 * (`ask_…`) is one, and one such character makes V8 hold the string in UTF-16: Node then re-encodes
 * the whole response, headers included, on every request (docs/performance.md).
 */
function latin1Json(json: string): string {
  const escaped = json.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // replace() keeps its input's UTF-16 representation even when no such character is left.
  return Buffer.from(escaped, 'latin1').toString('latin1');
}

function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new NotAuthenticatedError();
  return request.principal;
}
