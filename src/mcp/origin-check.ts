import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { OriginRejectedError } from '../shared/errors.ts';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * DNS-rebinding protection for /mcp (docs/api.md, "MCP"): the MCP transport specification says a
 * server MUST validate `Origin`. A request without one (any non-browser client) passes. One with an
 * `Origin` passes only if it is the configured public URL's origin, an origin listed in
 * MCP_ALLOWED_ORIGINS, or the request's own origin on a loopback host name.
 *
 * "The request's own origin" alone would not do: a rebinding page at http://evil.example sends
 * `Host: evil.example` and `Origin: http://evil.example`, which match each other. Only a host name
 * the server knows it is reached by (loopback, or the public URL) makes Origin = Host meaningful.
 */
export function originHook(options: { publicUrl: string; allowedOrigins: readonly string[] }) {
  const allowed = new Set([new URL(options.publicUrl).origin, ...options.allowedOrigins]);
  return function checkOrigin(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const origin = request.headers.origin;
    if (origin === undefined || allowed.has(origin) || isOwnLoopbackOrigin(request, origin)) return done();
    done(new OriginRejectedError());
  };
}

function isOwnLoopbackOrigin(request: FastifyRequest, origin: string): boolean {
  const own = `${request.protocol}://${request.host}`;
  if (origin !== own || !URL.canParse(own)) return false;
  return LOOPBACK_HOSTNAMES.has(new URL(own).hostname);
}
