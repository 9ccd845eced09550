import ipaddr from 'ipaddr.js';

/**
 * The written form of addresses and ranges (docs/keys.md (IP allowlists)): what a key's
 * `allowed_ips` and TRUSTED_PROXIES accept, and the one canonical spelling each is stored and
 * compared in. Strict on purpose: ipaddr.js alone also reads `127.1`, `0x7f.0.0.1` and `010.0.0.1`,
 * spellings an operator may not mean the way a parser does.
 */
export const MAX_ALLOWED_IPS = 50;
/** Longer than any address with a prefix (45 + 4); a bound before any parsing. */
const MAX_ENTRY_LENGTH = 64;

export type Family = 'ipv4' | 'ipv6';
/** A parsed entry: the network's address in canonical text, its family and prefix length. */
export type IpEntry = { address: string; family: Family; prefix: number };
export type EntryResult = { ok: true; entry: string; parsed: IpEntry } | { ok: false; problem: string };

const FOUR_PART_DECIMAL = /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/;
const PREFIX = /^(0|[1-9]\d{0,2})$/;

/**
 * One address, strictly: a four-part decimal IPv4 address or an IPv6 address without zone, in
 * canonical text. An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) is its IPv4 address: that is
 * how the client of an IPv4 connection to an IPv6 socket appears. Null when it is not one.
 */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (text.length === 0 || text.length > 45) return null;
  if (!text.includes(':'))
    return FOUR_PART_DECIMAL.test(text) && ipaddr.IPv4.isValid(text) ? ipaddr.IPv4.parse(text) : null;
  if (text.includes('%') || !ipaddr.IPv6.isValid(text)) return null;
  // An embedded IPv4 part (`::ffff:1.2.3.4`) is held to the same four-part rule.
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (tail.includes('.') && !FOUR_PART_DECIMAL.test(tail)) return null;
  const address = ipaddr.IPv6.parse(text);
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** An address in its canonical text (lowercase, compressed IPv6; mapped IPv6 as IPv4), or null. */
export function canonicalAddress(text: string): string | null {
  return parseAddress(text)?.toString() ?? null;
}

/**
 * One entry of an allowlist: an address, or a range `address/prefix` whose host bits are zero.
 * A single address is written without `/len` (`/32`, `/128` are dropped); a range of IPv4-mapped
 * IPv6 addresses (`::ffff:0:0/96` and narrower) becomes the IPv4 range it names.
 */
export function canonicalIpEntry(raw: unknown): EntryResult {
  if (typeof raw !== 'string') return { ok: false, problem: 'Give an address or range as a string.' };
  const text = raw.trim();
  if (text === '')
    return { ok: false, problem: 'Empty: give an address such as 203.0.113.7 or a range such as 198.51.100.0/24.' };
  if (text.length > MAX_ENTRY_LENGTH) return { ok: false, problem: 'Too long to be an address or a range.' };
  const slash = text.indexOf('/');
  const address = parseAddress(slash === -1 ? text : text.slice(0, slash));
  if (!address) {
    return {
      ok: false,
      problem: `"${text}" is not an IPv4 or IPv6 address or range (e.g. 203.0.113.7, 2001:db8::/32).`,
    };
  }
  const mapped = slash !== -1 && text.slice(0, slash).includes(':') && address.kind() === 'ipv4';
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  let prefix = bits;
  if (slash !== -1) {
    const written = text.slice(slash + 1);
    if (!PREFIX.test(written)) return { ok: false, problem: `"${text}": the prefix length must be a whole number.` };
    // A prefix written for the mapped IPv6 form counts the 96 bits before the IPv4 address.
    prefix = Number(written) - (mapped ? 96 : 0);
    const range = mapped ? '96–128' : `0–${bits}`;
    if (prefix < 0 || prefix > bits) return { ok: false, problem: `"${text}": the prefix length must be ${range}.` };
  }
  const network = networkOf(address, prefix);
  if (network.toString() !== address.toString()) {
    return {
      ok: false,
      problem: `"${text}" has host bits set: the range is ${network.toString()}/${prefix}${mapped ? ' (IPv4)' : ''}.`,
    };
  }
  const canonical = address.toString();
  const entry = prefix === bits ? canonical : `${canonical}/${prefix}`;
  return { ok: true, entry, parsed: { address: canonical, family: address.kind(), prefix } };
}

/** The address with every bit past `prefix` cleared. */
function networkOf(address: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const bytes = address.toByteArray();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    bytes[i] = bytes[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return ipaddr.fromByteArray(bytes);
}

/** What is wrong with an entry, in the words the server would answer with; undefined when it is fine. */
export function ipEntryProblem(raw: string): string | undefined {
  const result = canonicalIpEntry(raw);
  return result.ok ? undefined : result.problem;
}

export type ListResult =
  { ok: true; entries: string[] } | { ok: false; problems: Array<{ index: number; problem: string }> };

/**
 * A whole allowlist: 1–50 entries, each canonical, duplicates (after canonicalising) dropped
 * with the first kept where it stood. Every bad entry is named by its index.
 */
export function canonicalIpList(raw: readonly unknown[]): ListResult {
  const problems: Array<{ index: number; problem: string }> = [];
  const entries: string[] = [];
  raw.forEach((item, index) => {
    const result = canonicalIpEntry(item);
    if (!result.ok) problems.push({ index, problem: result.problem });
    else if (!entries.includes(result.entry)) entries.push(result.entry);
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, entries };
}
