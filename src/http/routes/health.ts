import type { FastifyInstance } from 'fastify';
import type { Services } from '../../app/services.ts';

/**
 * Liveness (the process answers) and readiness (database reachable, change feed subscribed).
 * `lease` says whether the instance may answer from its cache (docs/keys.md (Revocation)); without it, it reads through.
 */
export function healthRoutes(app: FastifyInstance, services: Pick<Services, 'readiness'>): void {
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const checks = await services.readiness.check();
    const ready = checks.database && checks.change_feed;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
  });
}
