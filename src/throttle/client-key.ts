import { parseAddress } from '../shared/ip-entries.ts';

/**
 * The client an address belongs to, as the throttles count it: an IPv4 address, or the /64 an
 * IPv6 address is in. One subscriber is routinely handed a whole /64, so counting its addresses
 * one by one would give whoever holds one 2^64 fresh starts.
 */
export function clientKey(address: string): string {
  const parsed = parseAddress(address);
  if (parsed === null || parsed.kind() === 'ipv4') return parsed?.toString() ?? address;
  const parts = parsed.toNormalizedString().split(':').slice(0, 4);
  return `${parts.map((part) => part.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
