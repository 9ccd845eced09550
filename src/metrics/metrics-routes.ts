import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.ts';
import { processRegistry } from './process-metrics.ts';

/**
 * GET /metrics in the Prometheus text format. No key: it reveals counts and timings, never a key,
 * a tenant or a URL. Kept out of the public OpenAPI document.
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics): void {
  // Created now, not on the first scrape: the CPU counters count from their creation, and a first
  // scrape would otherwise report (almost) no CPU at all.
  processRegistry();
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const [own, process] = await Promise.all([metrics.registry.metrics(), processRegistry().metrics()]);
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(`${own}\n${process}`);
  });
}

/** The onResponse step: counts the request by its route pattern (404s as "unmatched"). */
export function countRequest(metrics: Metrics, request: FastifyRequest, reply: FastifyReply): void {
  metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode);
}
