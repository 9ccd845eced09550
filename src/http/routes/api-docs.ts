import type { FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

const ROUTE_PREFIX = '/docs' as const;
// Scalar's page runs inline scripts; the policy is relaxed for the docs alone.
const DOCS_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'";
// What of Scalar's answer is passed on: its body's type and a redirect's target.
const FORWARDED_HEADERS = ['content-type', 'location'] as const;

const SCALAR_OPTIONS: FastifyApiReferenceOptions = {
  routePrefix: ROUTE_PREFIX,
  configuration: {
    url: '/api/v1/openapi.json',
    title: 'airkey API',
    // No web fonts: the docs must not call out to a CDN (and the CSP would refuse it).
    withDefaultFonts: false,
    // Only what works self-hosted: no "Ask AI" agent, no "Generate MCP", no developer toolbar
    // (its Deploy and Share lead to Scalar's hosted service), no telemetry.
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    telemetry: false,
    authentication: { preferredSecurityScheme: 'ApiKeyHeader' },
  },
};

/**
 * `/docs`: Scalar's API reference page and its script. Scalar's plugin is a 4.3 MB module (its
 * browser bundle as one string) that took a fifth of every start to load, for a page few requests
 * ask for: it is loaded by the first `/docs` request, into a Fastify instance of its own that these
 * routes hand the request to in memory (no socket). The browser scope's hooks still apply here.
 */
export function apiDocsRoutes(browser: FastifyInstance): void {
  let docs: Promise<FastifyInstance> | undefined;
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    docs ??= loadDocs().catch((error: unknown) => {
      docs = undefined; // the next request tries again
      throw error;
    });
    const answer = await (await docs).inject({ method: 'GET', url: request.url });
    reply.code(answer.statusCode);
    for (const name of FORWARDED_HEADERS) {
      const value = answer.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.send(answer.rawPayload);
  };
  const options = {
    schema: { hide: true },
    onRequest: (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      reply.header('Content-Security-Policy', DOCS_POLICY);
      done();
    },
  };
  // `/docs` and `/docs/` alike (the server ignores a trailing slash); Scalar redirects the first.
  browser.get(ROUTE_PREFIX, options, forward);
  browser.get(`${ROUTE_PREFIX}/js/scalar.js`, options, forward);
}

async function loadDocs(): Promise<FastifyInstance> {
  const { default: scalarApiReference } = await import('@scalar/fastify-api-reference');
  // The same router options as the server's, so Scalar declares the same routes it would there.
  const docs = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await docs.register(scalarApiReference, SCALAR_OPTIONS);
  await docs.ready();
  return docs;
}
