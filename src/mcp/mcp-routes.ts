import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../app/services.ts';
import { apiKeyHook } from '../http/api-key-auth.ts';
import { problemFor, problemOf, sendProblem } from '../problems/problem.ts';
import { limitsView } from '../limits/index.ts';
import { NotAuthenticatedError } from '../shared/errors.ts';
import { originHook } from './origin-check.ts';

/**
 * `/mcp`: MCP over Streamable HTTP, stateless. There are no MCP sessions to hijack or to outlive
 * a key: every HTTP request carries the key and goes through the same key check as `/api/v1`,
 * so a key disabled, deleted or narrowed mid-conversation is refused on its very next request.
 */
export function mcpRoutes(
  app: FastifyInstance,
  services: Pick<Services, 'config' | 'keyCheck' | 'keyLimits' | 'flights'>,
): void {
  // First the Origin (403 origin_rejected): a page from a foreign origin gets no key check at all,
  // so it cannot even probe which keys are valid.
  app.addHook(
    'onRequest',
    originHook({ publicUrl: services.config.publicUrl, allowedOrigins: services.config.mcpAllowedOrigins }),
  );
  // onRequest, before the body is parsed: without a valid key, nothing MCP-related runs and the
  // answer is the same 401/429/503 problem+json as the REST API's.
  app.addHook('onRequest', apiKeyHook(services.keyCheck, services.keyLimits));

  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const principal = request.principal;
    if (!principal) throw new NotAuthenticatedError();
    const { createMcpServer, StreamableHTTPServerTransport } = await loadMcpSdk();
    const server = createMcpServer({
      principal,
      limits: limitsView(request.limitsSeen),
      flights: services.flights,
      onFault: (error) => request.log.error({ err: error }, 'mcp tool failed'),
      onRefused: (code) => void (request.problemCode = code),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });

    // From here the SDK writes the response (Fastify still logs it on finish, via onResponse);
    // the key's RateLimit fields, set on the reply by the key hook, go with it.
    for (const name of RATE_LIMIT_FIELDS) {
      const value = reply.getHeader(name);
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.hijack();
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'mcp request failed');
      if (!reply.raw.headersSent) writeProblem(reply, error);
    }
  });

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  app.get('/mcp', { schema: { hide: true } }, methodNotAllowed);
  app.delete('/mcp', { schema: { hide: true } }, methodNotAllowed);
}

// The MCP SDK and its schemas took a tenth of every start to load: they load with the first /mcp
// request instead (a refused request never loads them).
let mcpSdk: Promise<typeof import('./mcp-server.ts')> | undefined;
function loadMcpSdk() {
  return (mcpSdk ??= import('./mcp-server.ts').catch((error: unknown) => {
    mcpSdk = undefined; // the next request tries again
    throw error;
  }));
}

const RATE_LIMIT_FIELDS = ['ratelimit-policy', 'ratelimit'] as const;
const STATELESS = problemFor(
  'method_not_allowed',
  'This MCP server is stateless: send JSON-RPC messages with POST /mcp.',
);

async function methodNotAllowed(_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('Allow', 'POST');
  return sendProblem(reply, STATELESS);
}

/** After hijack the error handler is out of reach; the same problem body, written by hand. */
function writeProblem(reply: FastifyReply, error: unknown): void {
  const problem = problemOf(error);
  reply.raw.writeHead(problem.status, { 'Content-Type': 'application/problem+json' });
  reply.raw.end(JSON.stringify(problem));
}
