import { describe, expect, it } from 'vitest';
import { clientAddressOf } from '../../../src/shared/client-address.ts';
import { IpRanges } from '../../../src/shared/ip-ranges.ts';

const PROXIES = new IpRanges(['10.0.0.0/8', '2001:db8:cafe::/48']);
const walk = (peer: string | undefined, xff?: string | string[], trusted: IpRanges | null = PROXIES) =>
  clientAddressOf(peer, xff, trusted);

/** Who the client is (docs/keys.md (IP allowlists)): the peer, or the right-to-left walk of X-Forwarded-For from trusted peers. */
describe('the client address', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(walk('203.0.113.7', '198.51.100.1', null)).toBe('203.0.113.7');
    expect(walk('10.0.0.1', '198.51.100.1', null)).toBe('10.0.0.1');
  });

  it('is the peer when the peer is not a trusted proxy: its X-Forwarded-For is ignored', () => {
    expect(walk('203.0.113.7', '198.51.100.1')).toBe('203.0.113.7');
  });

  it('is an IPv4-mapped IPv6 peer’s IPv4 address', () => {
    expect(walk('::ffff:203.0.113.7', undefined, null)).toBe('203.0.113.7');
    // The mapped form of a trusted proxy is trusted as that proxy.
    expect(walk('::ffff:10.1.1.1', '198.51.100.9')).toBe('198.51.100.9');
  });

  it('is the rightmost address that is not a trusted proxy, so a spoofed leftmost entry changes nothing', () => {
    expect(walk('10.0.0.1', '203.0.113.66, 198.51.100.9')).toBe('198.51.100.9');
    expect(walk('10.0.0.1', '198.51.100.9, 10.0.0.2, 10.0.0.3')).toBe('198.51.100.9');
    expect(walk('10.0.0.1', ['203.0.113.66', '198.51.100.9, 10.0.0.2'])).toBe('198.51.100.9');
    expect(walk('2001:db8:cafe::1', '2001:DB8:0::7, 2001:db8:cafe::2')).toBe('2001:db8::7');
  });

  it('writes the address found in canonical form, a mapped one as IPv4', () => {
    expect(walk('10.0.0.1', '::FFFF:198.51.100.9')).toBe('198.51.100.9');
  });

  it('is the trusted proxy that passed on a malformed entry, never anything written to its left', () => {
    expect(walk('10.0.0.1', 'not-an-address')).toBe('10.0.0.1');
    expect(walk('10.0.0.1', '')).toBe('10.0.0.1');
    expect(walk('10.0.0.1', '198.51.100.9, 198.51.100.10:443')).toBe('10.0.0.1');
    expect(walk('10.0.0.1', '198.51.100.9, garbage, 10.0.0.2')).toBe('10.0.0.2');
    expect(walk('10.0.0.1', '198.51.100.9,,10.0.0.2')).toBe('10.0.0.2');
    // Left of the first untrusted address nothing is read, so garbage there changes nothing.
    expect(walk('10.0.0.1', 'garbage, 198.51.100.9')).toBe('198.51.100.9');
  });

  it('is the farthest proxy when every entry is a trusted proxy', () => {
    expect(walk('10.0.0.1', '10.0.0.3, 10.0.0.2')).toBe('10.0.0.3');
  });

  it('is the peer when a trusted proxy sends no X-Forwarded-For, and empty without a peer', () => {
    expect(walk('10.0.0.1', undefined)).toBe('10.0.0.1');
    expect(walk(undefined, '198.51.100.9')).toBe('');
  });

  it('stops after 32 trusted hops rather than walk a padded header', () => {
    const padded = ['198.51.100.9', ...Array.from({ length: 40 }, (_, i) => `10.0.0.${i + 2}`)].join(',');
    // Entries 10.0.0.41 down to 10.0.0.10 are walked; the last of them is the nearest address known.
    expect(walk('10.0.0.1', padded)).toBe('10.0.0.10');
  });
});
