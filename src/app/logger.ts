import { DrizzleQueryError } from 'drizzle-orm/errors';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { REDACTED_PATHS, scrubUrl } from '../shared/redaction.ts';
import { traceLogOptions } from '../telemetry/spans/log-fields.ts';
import { activeTracing } from '../telemetry/setup/tracing.ts';
import { stdoutLines } from './stdout.ts';

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
    // stdout by default through the one writer the other loggers share, so lines never interleave.
    stream: options.stream ?? stdoutLines(),
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

/** The logger for work outside requests (background flushes): redacted as the main logger is. */
export function backgroundLogger(options: LogOptions): Logger {
  const { stream, ...settings } = loggerOptions(options);
  return pino(settings, stream ?? stdoutLines());
}
