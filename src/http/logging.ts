import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import { scrubUrl } from '../shared/redaction.ts';
import type { LogOptions } from '../app/logger.ts';

/**
 * The logger for the one line per request. Every field of that line is built here from values that
 * cannot hold a credential (the URL is scrubbed, the key appears by id), so it skips the redaction
 * pass the main logger runs on every call, a visible share of a request (docs/performance.md).
 * Same level, same destination (the main logger's stream, or stdout), same pid/hostname base.
 * Written asynchronously: lines that arrive while a write is under way go out together in the next
 * one, where a synchronous write per line would be one system call per request. pino flushes what
 * is pending when the process exits; a SIGKILL can lose the lines of the last write.
 */
export function requestLineLogger(options: LogOptions): Logger {
  return pino({ level: options.level }, options.stream ?? stdoutAsBuffers());
}

/**
 * stdout through sonic-boom, asynchronous, its pending lines kept as buffers. Kept as a string (its
 * default), the pending chunk is measured again, in full, for every line appended to it: under load
 * a line arrives while a write is under way, and each one paid for scanning up to 16 KiB. As
 * buffers, each line's length is taken once. pino's own destination still writes, and flushes on exit.
 */
function stdoutAsBuffers(): DestinationStream {
  // sonic-boom's types name strings only; in buffer mode its write takes a Buffer.
  const stdout = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }) as unknown as {
    write(data: Buffer): boolean;
  };
  return { write: (line: string) => stdout.write(Buffer.from(line)) };
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
