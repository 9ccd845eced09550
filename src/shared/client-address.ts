import { canonicalAddress } from './ip-entries.ts';
import type { IpRanges } from './ip-ranges.ts';

/** Longer chains are not followed: no deployment has that many proxies, and a header is cheap to pad. */
const MAX_HOPS = 32;

/**
 * Who the client of a request is (docs/keys.md (Where a key may be used from)): the connection's
 * peer, unless that peer is a trusted proxy. Then `X-Forwarded-For` is read from right to left,
 * skipping trusted proxies, and the first address that is not one is the client.
 *
 * Right to left because each proxy appends the address it was connected from: the entries to the
 * right were written by proxies we trust, anything to the left of the first untrusted address was
 * written by whoever that is, and a client can put whatever it likes at the left end. Reading the
 * leftmost entry would let anyone choose their address.
 *
 * A malformed entry reached on the walk makes the client the trusted proxy that passed it on:
 * nothing it says can be believed, and the proxy is the nearest address known for sure. The
 * result is always an address's canonical text (an IPv4-mapped peer as IPv4), or '' with no peer.
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: IpRanges | null,
): string {
  const client = peerAddressOf(peer);
  if (trustedProxies === null || forwardedFor === undefined || !trustedProxies.allows(client)) return client;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = header.split(',');
  let nearest = client;
  for (let i = hops.length - 1, walked = 0; i >= 0 && walked < MAX_HOPS; i--, walked++) {
    const hop = canonicalAddress(hops[i]!.trim());
    if (hop === null) return nearest;
    if (!trustedProxies.allows(hop)) return hop;
    nearest = hop;
  }
  // Every entry was a trusted proxy: the farthest one is the best known.
  return nearest;
}

/**
 * The peer as the socket reports it, made canonical. Node reports an IPv4 client of a dual-stack
 * socket as `::ffff:a.b.c.d`; that is its IPv4 address. The usual case (a plain IPv4 or compressed
 * IPv6 peer) returns the socket's own string, with no parsing.
 */
export function peerAddressOf(peer: string | undefined): string {
  if (peer === undefined) return '';
  if (peer.startsWith('::ffff:') && peer.includes('.')) return canonicalAddress(peer) ?? peer;
  return peer;
}
