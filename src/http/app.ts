import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import helmet, { type HelmetOptions } from 'helmet';
import fastifySwagger from '@fastify/swagger';
import scalarApiReference from '@scalar/fastify-api-reference';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Services } from '../app/services.ts';
import { countRequest, metricsRoutes } from '../metrics/metrics-routes.ts';
import { loggerOptions, logRequestDone } from './logging.ts';
import { errorHandler, notFoundHandler } from './problem.ts';
import { stripQueryKey } from './redaction.ts';
import { backofficeAuditRoutes } from './routes/backoffice-audit.ts';
import { backofficeKeyRoutes } from './routes/backoffice-keys.ts';
import { backofficeUsageRoutes } from './routes/backoffice-usage.ts';
import { backofficePages } from './routes/backoffice-pages.ts';
import { backofficeSessionRoutes } from './routes/backoffice-session.ts';
import { backofficeUserRoutes } from './routes/backoffice-users.ts';
import { healthRoutes } from './routes/health.ts';
import { leakedKeyRoutes } from './routes/leaked-keys.ts';
import { publicApiRoutes } from './routes/public-api.ts';
import { sessionHook } from './session-auth.ts';
import './types.ts';

export type AppOptions = {
  /** Where log lines go (tests capture them); stdout otherwise. */
  logStream?: DestinationStream;
  /** Extra routes mounted by other features (MCP) before the server starts. */
  plugins?: Array<(app: FastifyInstance, services: Services) => Promise<void>>;
};

const SECURITY_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets inline styles.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      // Plain http on a LAN must keep working; HSTS handles https deployments.
      upgradeInsecureRequests: null,
    },
  },
};

/** Builds the HTTP server over the services; nothing here holds a business rule. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger: loggerOptions({ level: config.logLevel, stream: options.logStream }),
    // One line per request, written by logRequestDone, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Only as many proxy hops as configured may set the client address the throttles count by.
    trustProxy: config.trustProxyHops > 0 ? (_address: string, hop: number) => hop < config.trustProxyHops : false,
    rewriteUrl: (request) => stripQueryKey(request),
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  // Many clients send Content-Type: application/json on every request: an empty body (a DELETE)
  // is no body, not malformed JSON. Anything else goes to Fastify's own (prototype-safe) parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onResponse', async (request, reply) => {
    logRequestDone(request, reply);
    countRequest(services.metrics, request, reply);
  });

  // helmet's middleware built once: @fastify/helmet rebuilt it (and re-parsed the CSP) on every
  // request, about 5 % of the server's CPU in the benchmark.
  const securityHeaders = helmet(SECURITY_HEADERS);
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)));
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'airkey public API',
        version: '1.0.0',
        description: 'Flights of your tenant, authenticated with an API key. Send it in the X-API-Key header.',
      },
      components: {
        securitySchemes: {
          ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          BearerAuth: { type: 'http', scheme: 'bearer' },
          ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'Fallback only: URLs end up in logs and history.' },
        },
      },
    },
    // Only /api/v1 belongs to the public document.
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      return input.url.startsWith('/api/v1/') ? transformed : { ...transformed, schema: { ...transformed.schema, hide: true } };
    },
  });

  await app.register(healthRoutes, services);
  await app.register(async (scope) => metricsRoutes(scope, services.metrics));
  await app.register(async (api) => publicApiRoutes(api, services), { prefix: '/api/v1' });
  // Its own scope: no key-check hook (a finder of a key need not hold one).
  await app.register(async (api) => leakedKeyRoutes(api, services), { prefix: '/api/v1' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(
    async (backoffice) => {
      backoffice.addHook('onRequest', async (_request, reply) => void reply.header('Cache-Control', 'no-store'));
      await backoffice.register(async (open) => backofficeSessionRoutes(open, services));
      await backoffice.register(async (guarded) => {
        guarded.addHook('onRequest', sessionHook(services.sessions));
        await backofficeKeyRoutes(guarded, services);
        await backofficeUsageRoutes(guarded, services);
        await backofficeAuditRoutes(guarded, services);
        await backofficeUserRoutes(guarded, services);
      });
    },
    { prefix: '/backoffice/api' },
  );
  await app.register(async (pages) => backofficePages(pages, services));
  await app.register(scalarApiReference, {
    routePrefix: '/docs',
    // No web fonts: the docs must not call out to a CDN (and the CSP would refuse it).
    configuration: { url: '/api/v1/openapi.json', title: 'airkey API', withDefaultFonts: false },
    hooks: {
      // Scalar's page runs inline scripts; relax the policy for the docs alone.
      onRequest: async (_request, reply) => {
        reply.header('Content-Security-Policy', "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'");
      },
    },
  });
  for (const plugin of options.plugins ?? []) await app.register(async (scope) => plugin(scope, services));
  return app;
}
