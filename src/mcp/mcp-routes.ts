import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../app/services.ts';
import { limitsView } from '../limits/index.ts';
import { NotAuthenticatedError } from '../shared/errors.ts';
import { problemFor, sendProblem } from '../problems/problem.ts';
import type { McpExchange } from './mcp-handler.ts';
import { originHook } from './origin-check.ts';
import { resourceMetadataUrl } from '../oauth/resource-metadata.ts';

/**
 * `/mcp`: MCP over Streamable HTTP, stateless in every protocol revision. There are no MCP
 * sessions to hijack or to outlive a key: every HTTP request carries the key and goes through the
 * same key check as `/api/v1`, so a key disabled, deleted or narrowed mid-conversation is refused
 * on its very next request.
 *
 * The SDK answers with a web Response that this route hands back to Fastify, so every airkey hook
 * (Origin, key check, limits, RateLimit fields, security headers, request log, problem details)
 * runs around it exactly as around any other route.
 */
export function mcpRoutes(app: FastifyInstance, services: Pick<Services, 'config' | 'flights' | 'oauth'>): void {
  // Its 401s name the RFC 9728 document, where a host starts OAuth (docs/oauth.md).
  app.decorateReply('resourceMetadata', resourceMetadataUrl(services.oauth.urls, '/mcp'));
  // First the Origin (403 origin_rejected): a page from a foreign origin gets no key check at all,
  // so it cannot even probe which keys are valid.
  app.addHook(
    'onRequest',
    originHook({ publicUrl: services.config.publicUrl, allowedOrigins: services.config.mcpAllowedOrigins }),
  );
  // onRequest, before the body is parsed: without a valid key, nothing MCP-related runs and the
  // answer is the same 401/429/503 problem+json as the REST API's: the app's one admission hook
  // (src/http/admission-answer.ts), handed over as `app.admissionHook`, not imported.
  app.addHook('onRequest', app.admissionHook);

  // The MCP SDK and its schemas took a tenth of every start to load: they load with the first /mcp
  // request instead (a refused request never loads them).
  let loaded: Promise<McpExchange> | undefined;
  const loadMcpExchange = () =>
    (loaded ??= import('./mcp-handler.ts').then(
      // Reports a request the SDK refused (a header mismatch, an unsupported revision): the client's
      // mistake, answered in its response, so only worth a debug line.
      (module) => module.createMcpExchange((error) => app.log.debug({ err: error }, 'mcp request refused by the SDK')),
      (error: unknown) => {
        loaded = undefined; // the next request tries again
        throw error;
      },
    ));

  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const principal = request.principal;
    if (!principal) throw new NotAuthenticatedError();
    const exchange = await loadMcpExchange();
    const response = await exchange(webRequestOf(request), request.body, {
      principal,
      limits: limitsView(request.limitsSeen),
      flights: services.flights,
      onFault: (error) => request.log.error({ err: error }, 'mcp tool failed'),
      onRefused: (code) => void (request.problemCode = code),
    });
    reply.code(response.status);
    for (const [name, value] of response.headers) reply.header(name, value);
    // A JSON answer goes out as one string (Content-Length, one write); an SSE stream as a stream.
    if (response.headers.get('content-type')?.startsWith('application/json')) return reply.send(await response.text());
    return reply.send(response.body);
  });

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  app.get('/mcp', { schema: { hide: true } }, methodNotAllowed);
  app.delete('/mcp', { schema: { hide: true } }, methodNotAllowed);
}

/**
 * The request as the SDK reads it: method and headers (the body is already parsed and goes
 * alongside). The URL is fixed: the SDK never routes on it, and the real one may carry a key in
 * its query string.
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') {
      if (isHeaderValue(value)) headers.set(name, value);
    } else if (value !== undefined) for (const item of value) if (isHeaderValue(item)) headers.append(name, item);
  }
  return new Request(MCP_URL, { method: 'POST', headers });
}
const MCP_URL = 'http://airkey.internal/mcp';

// Node reads a header's bytes as Latin-1 and refuses NUL, CR and LF, so off the wire every value
// fits; an injected request's may not, and `Headers` throws on it (a 500). Such a header is left
// out, as no reader of the SDK needs it.
const NOT_A_HEADER_VALUE = /[\0\r\n\u0100-\uffff]/;
const isHeaderValue = (value: string): boolean => !NOT_A_HEADER_VALUE.test(value);

const STATELESS = problemFor(
  'method_not_allowed',
  'This MCP server is stateless: send JSON-RPC messages with POST /mcp.',
);

async function methodNotAllowed(_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('Allow', 'POST');
  return sendProblem(reply, STATELESS);
}
