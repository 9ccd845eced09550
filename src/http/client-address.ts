import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { clientAddressOf, peerAddressOf } from '../shared/client-address.ts';
import { IpRanges } from '../shared/ip-ranges.ts';

/**
 * Sets `request.client` on every request, once, before any other hook reads it: the one answer to
 * "who is the client" that the key check, the allowlists, the throttles, the leak report, the audit
 * trail and the request log all share (src/shared/client-address.ts). Fastify's own `trustProxy`
 * stays off, so `request.ip` and `request.protocol` are only ever the connection's; nothing should
 * read the first, and `request.https` replaces the second where it matters (the session cookie).
 */
export function clientAddressHook(trustedProxies: readonly string[]) {
  const trusted = trustedProxies.length === 0 ? null : new IpRanges(trustedProxies);
  return function setClientAddress(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    const socket = request.raw.socket;
    const forwardedFor = request.headers['x-forwarded-for'];
    request.client = clientAddressOf(socket.remoteAddress, forwardedFor, trusted);
    request.https =
      (socket as TLSSocket).encrypted === true ||
      (trusted !== null && trusted.allows(peerAddressOf(socket.remoteAddress)) && forwardedHttps(request));
    done();
  };
}

/** The nearest proxy's word on the scheme (the last X-Forwarded-Proto entry): it terminated TLS or it did not. */
function forwardedHttps(request: FastifyRequest): boolean {
  const proto = request.headers['x-forwarded-proto'];
  const text = Array.isArray(proto) ? proto.join(',') : proto;
  return (
    text !== undefined &&
    text
      .slice(text.lastIndexOf(',') + 1)
      .trim()
      .toLowerCase() === 'https'
  );
}
