import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidRequestError } from '../shared/errors.ts';
import { problemFor, problemOf, sendProblem } from '../problems/problem.ts';
import type { Problem } from '../problems/problem-schema.ts';

/*
 * Errors raised before any route runs (docs/api.md (errors), last paragraph): Node's HTTP parser refusing the
 * request line or a header, and Fastify's router refusing the path. Both have their own default
 * answers (plain JSON that echoes the path); here they become problem details like every other
 * error. None of these bodies repeats anything from the request.
 */

const malformed = (path: string, message: string): Problem =>
  problemOf(new InvalidRequestError([{ path, message }], message));

const URI_TOO_LONG = problemFor('uri_too_long');
const HEADERS_TOO_LARGE = problemFor('request_header_fields_too_large');
const TIMEOUT = problemFor('request_timeout');

/** Fastify's `frameworkErrors` option: a path that is not valid percent-encoding, or a path parameter over `maxParamLength`. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ code: error.code }, 'request rejected by the router');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendProblem(reply, URI_TOO_LONG);
  } else if (error.code === 'FST_ERR_BAD_URL') {
    void sendProblem(reply, malformed('path', 'The path is not valid percent-encoded UTF-8.'));
  } else {
    // FST_ERR_ASYNC_CONSTRAINT (none are registered today): a fault of ours, not the client's.
    void sendProblem(reply, problemOf(error.statusCode && error.statusCode < 500 ? error : new Error('router')));
  }
}

/**
 * Node's HTTP parser overflows at `--max-http-header-size` (16 KiB) for a long request line and
 * for long headers alike; the chunk it was parsing tells which. A chunk that starts with a method
 * and has no line end yet, or a request line itself over half the limit, or a continuation chunk
 * whose first line ends with the HTTP version, is a long URI.
 */
export function overflowIsUri(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  const text = rawPacket.toString('latin1');
  const lineEnd = text.indexOf('\r\n');
  const firstLine = lineEnd < 0 ? text : text.slice(0, lineEnd);
  const startsRequest = /^[A-Z]{3,10} \S/.test(firstLine);
  if (startsRequest) return lineEnd < 0 || firstLine.length > 8 * 1024;
  return lineEnd >= 0 && / HTTP\/\d\.\d$/.test(firstLine);
}

/** Node's parse error, as Fastify types it loosely (`rawPacket` is a Buffer at run time). */
type ParseError = Error & { code?: string; rawPacket?: unknown };

function problemForParseError(error: ParseError): Problem {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return TIMEOUT;
    case 'HPE_HEADER_OVERFLOW':
      return overflowIsUri(error.rawPacket) ? URI_TOO_LONG : HEADERS_TOO_LARGE;
    case 'HPE_INVALID_URL':
      return malformed('request', 'The request target is malformed.');
    case 'HPE_INVALID_METHOD':
      return malformed('request', 'The request method is malformed.');
    case 'HPE_INVALID_HEADER_TOKEN':
      return malformed('headers', 'A header name or value holds a character HTTP does not allow.');
    default:
      return malformed('request', 'The request could not be parsed as HTTP.');
  }
}

/**
 * Fastify's `clientErrorHandler` option: the request never became a request, so the answer is
 * written on the socket by hand, then the connection is closed (the parser is in an unknown state).
 */
export function clientErrorHandler(this: FastifyInstance, error: ParseError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const body = problemForParseError(error);
  this.log.info({ code: body.code, parser: error.code }, 'malformed request refused');
  if (socket.writable) {
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}\r\n` +
        `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}

/** host[:port] as clients send it: a name or IPv4 address, or a bracketed IPv6 literal. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

function validHost(host: string | undefined): boolean {
  const match = host === undefined ? null : HOST.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
}

/**
 * Every request needs a well-formed Host: Node answers an HTTP/1.1 request without one with an
 * empty 400 of its own, and the MCP SDK's transport answers a missing or odd Host with an empty
 * 400 too. With `requireHostHeader: false` such requests reach Fastify, and this hook refuses
 * them as a problem.
 */
export function requireHost(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  if (validHost(request.headers.host)) return done();
  const message = 'Send a valid Host header (host or host:port).';
  done(new InvalidRequestError([{ path: 'host', message }], message));
}
