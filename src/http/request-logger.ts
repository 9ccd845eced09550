import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

/**
 * Fastify's `childLoggerFactory`: each request's logger (`request.log`, `reply.log`, the request id
 * bound) is made the first time the request logs something. pino builds a child's bindings eagerly,
 * and with redaction on it runs the redactor over them, about 2 µs a request; most requests never
 * log through it (their one line is the request line, logging.ts), so most never pay.
 */
export function requestLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  // A route's own level or serializers shape every line: such a child is made as Fastify makes it.
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings);
}

/** Forwards every call to the child, made on the first one. */
class RequestLogger implements FastifyBaseLogger {
  private readonly parent: FastifyBaseLogger;
  private readonly bindings: Bindings;
  private made: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings) {
    this.parent = parent;
    this.bindings = bindings;
  }

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.forward('fatal', args);
  }

  error(...args: unknown[]): void {
    this.forward('error', args);
  }

  warn(...args: unknown[]): void {
    this.forward('warn', args);
  }

  info(...args: unknown[]): void {
    this.forward('info', args);
  }

  debug(...args: unknown[]): void {
    this.forward('debug', args);
  }

  trace(...args: unknown[]): void {
    this.forward('trace', args);
  }

  silent(...args: unknown[]): void {
    this.forward('silent', args);
  }

  private forward(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', args: unknown[]): void {
    this.logger[method](...(args as Parameters<LogFn>));
  }
}
