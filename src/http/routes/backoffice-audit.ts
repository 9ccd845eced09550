import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import { auditPageSchema, auditQuerySchema } from '../../audit/audit-schemas.ts';
import { problemResponses } from '../schemas.ts';
import { needs, signedInActor } from '../session-auth.ts';

/** The tenant's audit trail (docs/api.md); AuditService checks `audit:read` itself. */
export function backofficeAuditRoutes(app: FastifyInstance, services: Pick<Services, 'audit'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/audit-events', {
    preHandler: needs('audit:read'),
    schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema, ...problemResponses(400, 401, 403) } },
    handler: async (request) => {
      const actor = signedInActor(request);
      return services.audit.list(actor, actor.tenantId, request.query.limit, request.query.cursor);
    },
  });
}
