import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { traceLogOptions } from '../telemetry/log-fields.ts';
import { activeTracing } from '../telemetry/tracing.ts';
import { REDACTED_PATHS, scrubUrl } from '../shared/redaction.ts';

export type LogOptions = { level: string; stream?: DestinationStream | undefined };

/** pino settings: secrets redacted on every path a credential can take, error logs included. */
export function loggerOptions(options: LogOptions): LoggerOptions & { stream?: DestinationStream } {
  return {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (request: { method?: string; url?: string; ip?: string; client?: string }) => ({
        method: request.method,
        url: request.url ? scrubUrl(request.url) : request.url,
        // Before the client hook ran (a request refused by the framework) only the peer is known.
        ip: request.client || request.ip,
      }),
      res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
      err: errorForLog,
    },
    ...(options.stream ? { stream: options.stream } : {}),
    ...traceMixin(),
  };
}

/**
 * Errors as pino writes them, minus what Drizzle adds to a failed query: its message and stack
 * carry the whole SQL and every parameter (several KiB a line, and parameters are data). What helps
 * an operator stays: the cause (message, code, stack), the statement shortened, and where it ran.
 */
export function errorForLog(error: Error): Record<string, unknown> {
  if (!(error instanceof DrizzleQueryError)) return pino.stdSerializers.err(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const header = `${error.name}: ${error.message}`;
  return {
    type: 'DrizzleQueryError',
    message: `query failed: ${cause?.message ?? 'no cause given'}`,
    query: shortened(error.query),
    stack: error.stack?.startsWith(header) ? error.stack.slice(header.length).trim() : undefined,
    // PGlite's cause repeats the query and its parameters: only what diagnoses the failure is kept.
    ...(cause ? { cause: diagnosis(pino.stdSerializers.err(cause)) } : {}),
  };
}

function diagnosis({ type, message, code, severity, routine, stack }: Record<string, unknown>) {
  return { type, message, code, severity, routine, stack };
}

function shortened(query: string): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

// Only when tracing is on: untraced, a log line costs not even the look-up of an active span.
function traceMixin(): Partial<typeof traceLogOptions> {
  return activeTracing() ? traceLogOptions : {};
}

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

/** The logger for work outside requests (background flushes): redacted as the main logger is. */
export function backgroundLogger(options: LogOptions): Logger {
  const { stream, ...settings } = loggerOptions(options);
  return pino(settings, stream ?? pino.destination({ dest: 1, sync: false }));
}
