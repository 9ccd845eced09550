import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

/** Every address a name resolves to; injectable so a test can change the answer between calls. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address);

/** The connection was refused because of where it would have gone (attempt error `blocked_address`). */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_BLOCKED_ADDRESS';
  readonly address: string;
  constructor(address: string) {
    super('The host name resolves to an address that is not allowed');
    this.address = address;
  }
}

/**
 * Whether an address is a public unicast one. Everything else is refused: loopback, private,
 * link-local, unique-local, unspecified, multicast, carrier-grade NAT and reserved ranges. An
 * IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export type SafeAgentOptions = {
  /** WEBHOOK_ALLOW_PRIVATE=1: any address (development and tests). */
  allowPrivate: boolean;
  connectTimeoutMs: number;
  resolver?: Resolver;
};

/**
 * The dispatcher every delivery goes through. It resolves the name itself, checks the answer, and
 * connects to exactly the address it checked: a second lookup (by the socket) could get another
 * answer, which is how DNS rebinding slips a private address past a check made beforehand. TLS
 * still verifies the certificate against the name (undici takes the server name from `host`).
 */
export function safeAgent(options: SafeAgentOptions): Agent {
  const resolver = options.resolver ?? systemResolver;
  const connectTo = buildConnector({ timeout: options.connectTimeoutMs });
  return new Agent({
    connect(target, callback) {
      const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
      addressFor(hostname, resolver, options.allowPrivate).then(
        (address) => connectTo({ ...target, hostname: address }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });
}

async function addressFor(hostname: string, resolver: Resolver, allowPrivate: boolean): Promise<string> {
  const addresses = isIP(hostname) ? [hostname] : await resolver(hostname);
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
  // One refused answer refuses the name: picking the good one would let a mixed answer choose later.
  if (!allowPrivate) {
    const blocked = addresses.find((address) => !isPublicAddress(address));
    if (blocked !== undefined) throw new BlockedAddressError(blocked);
  }
  return addresses[0]!;
}
