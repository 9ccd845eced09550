import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Services } from '../app/services.ts';
import { countRequest, metricsRoutes } from '../metrics/metrics-routes.ts';
import { clientAddressHook } from './client-address.ts';
import { clientErrorHandler, frameworkErrors, requireHost } from './framework-errors.ts';
import { loggerOptions } from '../app/logger.ts';
import { requestLoggerFactory } from './request-logger.ts';
import { logRequestDone, requestLineLogger } from './logging.ts';
import { hoistExamples, openapiOptions } from './openapi.ts';
import { errorHandler, notFoundHandler } from './problem.ts';
import { stripQueryKey } from './redaction.ts';
import { API_SECURITY_HEADERS, BROWSER_SECURITY_HEADERS } from './security-headers.ts';
import { serializerCompiler } from './serializer.ts';
import { apiDocsRoutes } from './routes/api-docs.ts';
import { backofficeAuditRoutes } from './routes/backoffice-audit.ts';
import { backofficeKeyPolicyRoutes } from './routes/backoffice-key-policy.ts';
import { backofficeClientAddressRoutes } from './routes/backoffice-client-address.ts';
import { backofficeKeyRoutes } from './routes/backoffice-keys.ts';
import { backofficePages } from './routes/backoffice-pages.ts';
import { backofficeAccessRoutes } from './routes/backoffice-access.ts';
import { backofficeMeRoutes } from './routes/backoffice-me.ts';
import { backofficeOAuthGrantRoutes, backofficeOAuthRoutes } from './routes/backoffice-oauth.ts';
import { backofficeSessionRoutes } from './routes/backoffice-session.ts';
import { backofficeSignInRoutes } from './routes/backoffice-sign-in.ts';
import { backofficeSsoRoutes } from './routes/backoffice-sso.ts';
import { backofficeUsageRoutes } from './routes/backoffice-usage.ts';
import { backofficeUserRoutes } from './routes/backoffice-users.ts';
import { backofficeWebhookRoutes } from './routes/backoffice-webhooks.ts';
import { healthRoutes } from './routes/health.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { protectedResourceRoutes } from './routes/protected-resource.ts';
import { addJsonBodyParser } from './json-body.ts';
import { admissionHook } from './admission-answer.ts';
import { leakedKeyRoutes } from './routes/leaked-keys.ts';
import { publicApiRoutes } from './routes/public-api.ts';
import { backofficeRequestLogRoutes } from './routes/backoffice-request-log.ts';
import { requestLogRecorder } from './request-log-hook.ts';
import { sessionHook } from './session-auth.ts';
import { activeTracing } from '../telemetry/setup/tracing.ts';
import './types.ts';

export type AppOptions = {
  /** Where log lines go (tests capture them); stdout otherwise. */
  logStream?: DestinationStream;
  /** Extra routes mounted by other features (MCP) before the server starts. */
  plugins?: Array<(app: FastifyInstance, services: Services) => void | Promise<void>>;
};

/** Builds the HTTP server over the services; nothing here holds a business rule. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger: loggerOptions({ level: config.logLevel, stream: options.logStream }),
    // One line per request, written by logRequestDone, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
    // Off: the client is derived once, by our own walk of X-Forwarded-For (client-address.ts).
    trustProxy: false,
    rewriteUrl: (request) => stripQueryKey(request),
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors before any route runs are problem details too (docs/api.md, Errors); see framework-errors.ts.
    frameworkErrors,
    clientErrorHandler,
    http: { requireHostHeader: false },
  });
  // Declared up front, so every request object is built with these fields and all share one
  // shape: set later, per request, they split requests into shapes the hot path reads slowly.
  app.decorateRequest('client', '');
  app.decorateRequest('https', false);
  app.decorateRequest('principal', undefined);
  app.decorateRequest('refusedKey', undefined);
  app.decorateRequest('problemCode', undefined);
  app.decorateRequest('backofficeSession', undefined);
  app.decorateRequest('traceSpan', undefined);
  app.decorateRequest('limitsSeen', undefined);
  // First, when tracing is on: its request span must be open before any other hook runs.
  activeTracing()?.instrument(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  addJsonBodyParser(app);
  app.setNotFoundHandler(notFoundHandler);
  // Callback-style hooks on every request: an async hook costs a promise and a microtask each.
  app.addHook('onRequest', clientAddressHook(config.trustedProxies));
  app.addHook('onRequest', requireHost);
  const requestLines = requestLineLogger({ level: config.logLevel, stream: options.logStream });
  const recordRequest = services.requestLog.writer && requestLogRecorder(services.requestLog.writer, services.clock);
  app.addHook('onResponse', (request, reply, done) => {
    logRequestDone(requestLines, request, reply);
    recordRequest?.(request, reply);
    countRequest(services.metrics, request, reply);
    done();
  });
  // Every response is a JSON API response unless the browser scope below says otherwise.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
  await app.register(fastifySwagger, {
    openapi: openapiOptions(config),
    transformObject: (documentObject) =>
      'openapiObject' in documentObject ? hoistExamples(documentObject.openapiObject) : documentObject.swaggerObject,
    // Only /api/v1 belongs to the public document.
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      return input.url.startsWith('/api/v1/')
        ? transformed
        : { ...transformed, schema: { ...transformed.schema, hide: true } };
    },
  });

  // Each route module gets the services it calls, in a scope of its own.
  const { metrics, keys, flights, signIn, accounts } = services;
  // One admission hook for every route a credential opens (the API, and MCP among the plugins).
  app.decorate('admissionHook', admissionHook(services.admission));
  await app.register(plugin(healthRoutes, { readiness: services.readiness }));
  await app.register(plugin(metricsRoutes, metrics));
  const { oauth } = services;
  await app.register(plugin(publicApiRoutes, { flights, oauth }), { prefix: '/api/v1' });
  // Its own scope: no key-check hook (a finder of a key need not hold one).
  await app.register(plugin(leakedKeyRoutes, { keys }), { prefix: '/api/v1' });
  // Its own scope: the provider parses its own bodies and answers OAuth errors in their own shape.
  await app.register(plugin(oauthRoutes, { oauth }));
  await app.register(plugin(protectedResourceRoutes, { oauth }));
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, () => app.swagger());
  // The browser scope: cookies and helmet's full header set with the page CSP, for the back
  // office, its pages and the docs only; API requests never parse a cookie.
  await app.register(async (browser) => {
    await browser.register(fastifyCookie);
    browser.addHook('onRequest', (_request, reply, done) => {
      reply.removeHeader('cache-control');
      reply.headers(BROWSER_SECURITY_HEADERS);
      done();
    });
    await browser.register(
      async (backoffice) => {
        backoffice.addHook('onRequest', (_request, reply, done) => {
          reply.header('Cache-Control', 'no-store');
          done();
        });
        // Server time, serialisation included, for the browser's network panel and the bench.
        backoffice.addHook(
          'onSend',
          async (_request, reply) => void reply.header('Server-Timing', `app;dur=${reply.elapsedTime.toFixed(1)}`),
        );
        // Before a session, the session itself, and one's own account: each scope with its own door.
        await backoffice.register(plugin(backofficeSignInRoutes, { signIn, config }));
        await backoffice.register(plugin(backofficeSessionRoutes, { signIn, config }));
        await backoffice.register(plugin(backofficeMeRoutes, { signIn, accounts, config }));
        await backoffice.register(plugin(backofficeRoutes, services));
      },
      { prefix: '/backoffice/api' },
    );
    await browser.register(plugin(backofficeSsoRoutes, { signIn, config }));
    await browser.register(plugin(backofficePages, { signIn }));
    apiDocsRoutes(browser);
  });
  for (const extra of options.plugins ?? []) await app.register(plugin(extra, services));
  return app;
}

/** The signed-in part of the back office: behind the session hook, each module with its services. */
function backofficeRoutes(guarded: FastifyInstance, services: Services): void {
  const { keys, usage, requestLog, audit, accounts, signIn, webhooks, oauth } = services;
  guarded.addHook('onRequest', sessionHook(signIn.sessions));
  backofficeKeyRoutes(guarded, { keys });
  backofficeKeyPolicyRoutes(guarded, { keys });
  backofficeUsageRoutes(guarded, { usage });
  backofficeRequestLogRoutes(guarded, { requestLog });
  backofficeAuditRoutes(guarded, { audit });
  backofficeUserRoutes(guarded, { accounts, signIn });
  backofficeAccessRoutes(guarded, { signIn });
  backofficeWebhookRoutes(guarded, { webhooks });
  backofficeClientAddressRoutes(guarded);
  backofficeOAuthRoutes(guarded, { oauth });
  backofficeOAuthGrantRoutes(guarded, { oauth });
}

/** A route module as a Fastify plugin (an encapsulated scope) over the services it is handed. */
function plugin<S>(
  declare: (app: FastifyInstance, services: S) => void | Promise<void>,
  services: S,
): FastifyPluginAsync {
  return async (scope) => {
    await declare(scope, services);
  };
}
