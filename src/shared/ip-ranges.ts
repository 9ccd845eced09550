import { canonicalIpEntry, parseAddress } from './ip-entries.ts';

/**
 * A list of addresses and ranges compiled for matching: each IPv4 range as a 32-bit network and
 * mask, each IPv6 range as four 32-bit words and their masks. Built once (when a key's facts are
 * cached, when the config is read); `allows` is then integer comparisons, with no parsing of the
 * list per request.
 */
export class IpRanges {
  /** IPv4 ranges: network and mask pairs, flattened. */
  private readonly v4: Uint32Array;
  /** IPv6 ranges: four network words then four mask words each, flattened. */
  private readonly v6: Uint32Array;
  /** The canonical entries, as written. */
  readonly entries: readonly string[];

  constructor(entries: readonly string[]) {
    const v4: number[] = [];
    const v6: number[] = [];
    for (const text of entries) {
      const result = canonicalIpEntry(text);
      if (!result.ok) throw new Error(`not a canonical address or range: ${text}`);
      const words = wordsOf(result.parsed.address)!;
      const masks = masksOf(result.parsed.prefix, words.length);
      (words.length === 1 ? v4 : v6).push(...words.map((word, i) => (word & masks[i]!) >>> 0), ...masks);
    }
    this.v4 = Uint32Array.from(v4);
    this.v6 = Uint32Array.from(v6);
    this.entries = Object.freeze([...entries]);
  }

  /** Whether `address` (an address's canonical text, as the client address is) is within one of the ranges. */
  allows(address: string): boolean {
    const words = cachedWordsOf(address);
    if (words === null) return false;
    if (words.length === 1) {
      const bits = words[0]!;
      const v4 = this.v4;
      for (let i = 0; i < v4.length; i += 2) if ((bits & v4[i + 1]!) >>> 0 === v4[i]) return true;
      return false;
    }
    const v6 = this.v6;
    for (let i = 0; i < v6.length; i += 8) {
      if (
        (words[0]! & v6[i + 4]!) >>> 0 === v6[i] &&
        (words[1]! & v6[i + 5]!) >>> 0 === v6[i + 1] &&
        (words[2]! & v6[i + 6]!) >>> 0 === v6[i + 2] &&
        (words[3]! & v6[i + 7]!) >>> 0 === v6[i + 3]
      )
        return true;
    }
    return false;
  }

  get size(): number {
    return this.entries.length;
  }
}

/** An address as one (IPv4) or four (IPv6) 32-bit words; null when it is not an address. */
function wordsOf(text: string): Uint32Array | null {
  const address = parseAddress(text);
  if (address === null) return null;
  const bytes = address.toByteArray();
  const words = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < words.length; i++) {
    words[i] = ((bytes[i * 4]! << 24) | (bytes[i * 4 + 1]! << 16) | (bytes[i * 4 + 2]! << 8) | bytes[i * 4 + 3]!) >>> 0;
  }
  return words;
}

function masksOf(prefix: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => {
    const keep = Math.max(0, Math.min(32, prefix - i * 32));
    return keep === 0 ? 0 : (0xffffffff << (32 - keep)) >>> 0;
  });
}

// Clients come back: a connection's address is parsed once, not per request. Bounded by clearing,
// so a flood of distinct addresses costs memory no more than this.
const MAX_CACHED_ADDRESSES = 10_000;
const parsedAddresses = new Map<string, Uint32Array | null>();

function cachedWordsOf(address: string): Uint32Array | null {
  let words = parsedAddresses.get(address);
  if (words === undefined) {
    if (parsedAddresses.size >= MAX_CACHED_ADDRESSES) parsedAddresses.clear();
    parsedAddresses.set(address, (words = wordsOf(address)));
  }
  return words;
}
