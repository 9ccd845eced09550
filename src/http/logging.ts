import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import { scrubUrl } from '../shared/redaction.ts';
import type { LogOptions } from '../app/logger.ts';

/**
 * The logger for the one line per request. Every field of that line is built here from values that
 * cannot hold a credential (the URL is scrubbed, the key appears by id), so it skips the redaction
 * pass the main logger runs on every call, a visible share of a request (docs/performance.md).
 * Same level, same destination (the main logger's stream, or stdout), same pid/hostname base.
 * Written asynchronously, as Fastify's own logger is: lines that arrive while a write is under way
 * go out together in the next one: a synchronous write per line would be one system call per
 * request. pino flushes what is pending when the process exits; a SIGKILL can
 * lose the lines of the last write.
 */
export function requestLineLogger(options: LogOptions): Logger {
  return pino({ level: options.level }, options.stream ?? pino.destination({ dest: 1, sync: false }));
}

/** One line per request, written when the response is done. */
export function logRequestDone(log: Logger, request: FastifyRequest, reply: FastifyReply): void {
  // Skip building the line at all when info is off: this runs on every request.
  if (!log.isLevelEnabled('info')) return;
  // A sampled request's trace, by its span: no context is active any more once the response is done.
  const trace = request.traceSpan?.spanContext();
  log.info(
    {
      reqId: request.id,
      method: request.method,
      url: scrubUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.client || request.ip,
      key_id: request.principal?.key.id,
      code: request.problemCode,
      trace_id: trace?.traceId,
      span_id: trace?.spanId,
    },
    'request',
  );
}
