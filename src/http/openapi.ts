import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config.ts';
import type { Flight } from '../flights/flight-schemas.ts';
import type { Whoami } from '../keys/key-schemas.ts';
import { problemSchema } from '../problems/problem-schema.ts';

/**
 * The public OpenAPI document's frame (docs/api.md): info, license, servers, security schemes,
 * and the examples and problem responses every operation carries. Kept lint-clean under Redocly's
 * recommended rules (test/standards/openapi-lint.test.ts).
 */
export function openapiOptions(config: Config): FastifyDynamicSwaggerOptions['openapi'] {
  return {
    openapi: '3.1.0',
    info: {
      title: 'airkey public API',
      version: '1.0.0',
      description: 'Flights of your tenant, authenticated with an API key. Send it in the X-API-Key header.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-airkey-proprietary' },
    },
    servers: [{ url: config.publicUrl, description: 'This airkey server (PUBLIC_URL)' }],
    tags: [
      { name: 'flights', description: "Your airline's flight schedule." },
      { name: 'keys', description: 'The API key in use.' },
    ],
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Recommended.' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The same key as a Bearer token.' },
        ApiKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'api_key',
          description: 'Fallback only: URLs end up in logs and history.',
        },
      },
    },
  };
}

export const FLIGHT_EXAMPLE: Flight = {
  id: '0b6f8a52-3f1e-4c8e-9a55-6d2c1f7e9b10',
  flight_number: 'DA1234',
  origin: 'LHR',
  destination: 'JFK',
  scheduled_departure: '2026-11-22T09:30:00.000Z',
  scheduled_arrival: '2026-11-22T17:35:00.000Z',
  status: 'scheduled',
  aircraft: { registration: 'G-DAAB', type: 'A20N' },
};

export const WHOAMI_EXAMPLE: Whoami = {
  tenant: { id: '6a0f2d7c-8b1e-4f3a-9c5d-2e7b8a1f0c34', slug: 'demo', name: 'Demo Airways' },
  key: {
    id: 'f3c9a1e2-5b7d-4e8f-a0c6-9d1b2e3f4a5b',
    name: 'Timetable sync',
    hint: 'ask_…x7Qp',
    expires_at: '2027-01-31',
  },
  acts_as: { type: 'user', id: '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d', email: 'ops@demo.example' },
  permissions: ['flights:read'],
  limits: {
    rate_limit: { requests: 600, window: '1m', remaining: 599, resets_at: '2026-11-25T10:01:00.000Z' },
    quota: { requests: 10000, period: 'day', remaining: 8765, resets_at: '2026-11-26T00:00:00.000Z' },
  },
};

type ProblemExample = {
  code: string;
  title: string;
  detail: string;
  description: string;
  errors?: Array<{ path: string; message: string }>;
};

const PROBLEMS: Record<number, ProblemExample> = {
  400: {
    code: 'invalid_request',
    title: 'Invalid request',
    detail: 'One or more fields are invalid.',
    errors: [{ path: 'limit', message: 'Use a whole number from 1 to 500.' }],
    description:
      'A parameter is malformed (invalid_request, each listed in errors), or two different keys were sent (api_key_ambiguous).',
  },
  401: {
    code: 'api_key_missing',
    title: 'API key missing',
    detail: 'Send your API key in the X-API-Key header.',
    description:
      'No key (api_key_missing), or a key that is malformed, unknown or deleted (api_key_invalid), disabled (api_key_disabled) or expired (api_key_expired).',
  },
  403: {
    code: 'permission_denied',
    title: 'Permission denied',
    detail: 'This action needs the permission flights:read.',
    description:
      "The key's authority lacks the permission (permission_denied), or the key may not be used from the client's address (api_key_ip_not_allowed; the detail names the address as seen).",
  },
  404: {
    code: 'not_found',
    title: 'Not found',
    detail: 'The flight does not exist.',
    description: 'No such flight in your tenant (not_found).',
  },
  414: {
    code: 'uri_too_long',
    title: 'URI too long',
    detail: 'The request URL or one of its path parameters is too long.',
    description: 'A path parameter longer than 100 characters (uri_too_long).',
  },
  429: {
    code: 'too_many_requests',
    title: 'Too many requests',
    detail: 'Too many failed attempts from this client. Retry in 30 s.',
    description: 'Too many failed key checks from this client (too_many_requests); see Retry-After.',
  },
  503: {
    code: 'unavailable',
    title: 'Service unavailable',
    detail: 'The service cannot reach its database right now. Retry shortly.',
    description: 'The database cannot be reached to verify an uncached key (unavailable).',
  },
};

/** RFC 9457 responses as served: `application/problem+json`, each status with its example. */
export function problemContent(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => {
      const { description, ...example } = PROBLEMS[status] ?? {
        code: 'error',
        title: 'Error',
        detail: 'See code.',
        description: 'Problem details.',
      };
      const body = { type: `https://airkey.dev/problems/${example.code}`, status, ...example };
      return [
        status,
        { description, content: { 'application/problem+json': { schema: problemSchema.meta({ examples: [body] }) } } },
      ];
    }),
  );
}

/**
 * @fastify/swagger leaves a schema's `examples` inside the schema of a per-content-type response;
 * documentation tools and linters look for the media type's `example`. Hoisted here.
 */
export function hoistExamples<Document extends { paths?: unknown }>(document: Document): Document {
  const paths = (document.paths ?? {}) as Record<
    string,
    Record<
      string,
      {
        responses?: Record<
          string,
          { content?: Record<string, { schema?: { examples?: unknown[] }; example?: unknown }> }
        >;
      }
    >
  >;
  for (const operation of Object.values(paths).flatMap((item) => Object.values(item))) {
    for (const response of Object.values(operation.responses ?? {})) {
      for (const media of Object.values(response.content ?? {})) {
        const examples = media.schema?.examples;
        if (Array.isArray(examples) && examples.length > 0 && media.example === undefined) {
          media.example = examples[0];
          delete media.schema!.examples;
        }
      }
    }
  }
  return document;
}
