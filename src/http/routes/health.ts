import type { FastifyInstance } from 'fastify';
import type { Services } from '../../app/services.ts';
import { monotonicClock } from '../../shared/clock.ts';

/**
 * Liveness (the process answers) and readiness (database reachable, change feed subscribed).
 * `lease` says whether the instance may answer from its cache (docs/keys.md (Revocation)); without it, it reads through.
 */
export function healthRoutes(app: FastifyInstance, services: Pick<Services, 'changes' | 'database'>): void {
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const checks = {
      database: false,
      change_feed: services.changes.listening,
      lease: monotonicClock() < services.changes.leaseValidUntil,
    };
    try {
      await services.database.ping();
      checks.database = true;
    } catch {
      // reported below
    }
    const ready = checks.database && checks.change_feed;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
  });
}
