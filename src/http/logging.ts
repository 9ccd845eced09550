import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import { scrubUrl } from '../shared/redaction.ts';
import type { LogOptions } from '../app/logger.ts';
import { stdoutLines } from '../app/stdout.ts';

/**
 * The logger for the one line per request. Every field of that line is built here from values that
 * cannot hold a credential (the URL is scrubbed, the key appears by id), so it skips the redaction
 * pass the main logger runs on every call, a visible share of a request (docs/performance.md).
 * Same level, same destination (the main logger's stream, or stdout), same pid/hostname base.
 * Written through the process's one stdout writer (../app/stdout.ts): one write per turn of the
 * event loop, the rest at exit; a SIGKILL can lose the lines of the turn it interrupts.
 */
export function requestLineLogger(options: LogOptions): Logger {
  return pino({ level: options.level }, options.stream ?? stdoutLines());
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
