import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';
import { REDACTED_PATHS, scrubUrl } from './redaction.ts';

export type LogOptions = { level: string; stream?: DestinationStream | undefined };

/** pino settings: secrets redacted on every path a credential can take, error logs included. */
export function loggerOptions(options: LogOptions): LoggerOptions & { stream?: DestinationStream } {
  return {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (request: { method?: string; url?: string; ip?: string }) => ({
        method: request.method,
        url: request.url ? scrubUrl(request.url) : request.url,
        ip: request.ip,
      }),
      res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
    },
    ...(options.stream ? { stream: options.stream } : {}),
  };
}

/** One line per request, written when the response is done. */
export function logRequestDone(request: FastifyRequest, reply: FastifyReply): void {
  // Skip building the line at all when info is off: this runs on every request.
  if (!(request.log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info')) return;
  request.log.info(
    {
      method: request.method,
      url: scrubUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
      key_id: request.principal?.key.id,
      code: request.problemCode,
    },
    'request',
  );
}
