import ipaddr from 'ipaddr.js';

/**
 * The networks a block of the request log summarises its addresses by (docs/request-log.md (The
 * block)): an IPv4 address's /24 and an IPv6 address's /48, each as one integer, so a block's
 * networks are a `bigint[]` with a GIN index, and an address filter reads only the blocks that
 * may hold a match. IPv6 networks start at 2^48, above every IPv4 one.
 */
const IPV6_BASE = 2 ** 48;
/** A filter wider than this many networks (a /15, a /39) reads the blocks without the summary. */
const MOST_NETWORKS = 256;

/** The network of an address as the log stores it; undefined for text that is not one. */
export function networkOf(address: string): number | undefined {
  if (!address.includes(':')) return ipv4Network(address);
  if (!ipaddr.IPv6.isValid(address)) return undefined;
  const bytes = ipaddr.parse(address).toByteArray();
  return bytes.length === 4 ? network(bytes, 3) : IPV6_BASE + network(bytes, 6);
}

/**
 * The networks an address or a range (`198.51.100.0/22`) can match, or undefined when it spans
 * more than `MOST_NETWORKS` of them (the blocks are then read by time alone).
 */
export function networksOf(filter: string): number[] | undefined {
  const [address, prefix] = filter.includes('/')
    ? ipaddr.parseCIDR(filter)
    : ([ipaddr.parse(filter), filter.includes(':') ? 128 : 32] as const);
  const bytes = address.toByteArray();
  const [width, base] = bytes.length === 4 ? [3, 0] : [6, IPV6_BASE];
  const spare = width * 8 - prefix;
  if (spare > Math.log2(MOST_NETWORKS)) return undefined;
  const first = spare > 0 ? Math.floor(network(bytes, width) / 2 ** spare) * 2 ** spare : network(bytes, width);
  return Array.from({ length: 2 ** Math.max(spare, 0) }, (_, i) => base + first + i);
}

/**
 * A dotted IPv4 address's first three parts, read here: the writer reads every distinct address of
 * a batch, and ipaddr.js took 1.1 µs an entry of the writer's 2.7 (bench/RESULTS.md).
 */
function ipv4Network(text: string): number | undefined {
  let [network, part, digits, dots] = [0, 0, 0, 0];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 46 && digits > 0 && part <= 255 && dots < 3) {
      [network, part, digits, dots] = [network * 256 + part, 0, 0, dots + 1];
    } else if (code >= 48 && code <= 57 && digits < 3) {
      [part, digits] = [part * 10 + code - 48, digits + 1];
    } else return undefined;
  }
  return dots === 3 && digits > 0 && part <= 255 ? network : undefined;
}

/** The first `width` bytes as one number (at most 6, well inside a double's 53 bits). */
function network(bytes: number[], width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) value = value * 256 + bytes[i]!;
  return value;
}
