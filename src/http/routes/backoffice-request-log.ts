import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../app/services.ts';
import {
  requestLogFilterSchema,
  requestLogPageSchema,
  requestLogQuerySchema,
  type RequestLogEntry,
} from '../../request-log/request-log-schemas.ts';
import { problemResponses } from '../schemas.ts';
import { needs, signedInActor } from '../session-auth.ts';

/**
 * The tenant's request log (docs/request-log.md): a page, and the NDJSON export of the same
 * filters. RequestLogService checks `api_keys:manage` itself; `needs` is the early courtesy.
 */
export function backofficeRequestLogRoutes(app: FastifyInstance, services: Pick<Services, 'requestLog'>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const manage = needs('api_keys:manage');

  api.get('/request-log', {
    preHandler: manage,
    schema: {
      querystring: requestLogQuerySchema,
      response: { 200: requestLogPageSchema, ...problemResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const { limit, cursor, ...filter } = request.query;
      return services.requestLog.reader.list(signedInActor(request), filter, limit, cursor);
    },
  });

  // Streamed: the reply pulls a line at a time, so a slow reader holds one batch in memory, not the log.
  api.get('/request-log/export', {
    preHandler: manage,
    // No response schema: the body is a stream of lines, sent as it is read; refusals are problem details as anywhere.
    schema: { querystring: requestLogFilterSchema },
    handler: async (request, reply) => {
      const entries = services.requestLog.reader.export(signedInActor(request), request.query);
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="requests.ndjson"')
        .send(Readable.from(linesOf(entries)));
    },
  });
}

async function* linesOf(entries: AsyncIterable<RequestLogEntry>): AsyncGenerator<string> {
  for await (const entry of entries) yield `${JSON.stringify(entry)}\n`;
}
