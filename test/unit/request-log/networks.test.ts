import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { networkOf, networksOf } from '../../../src/request-log/networks.ts';

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
const ipv6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((groups) => {
  return ipaddr.fromByteArray(groups.flatMap((g) => [g >> 8, g & 0xff])).toString();
});

/** A block's summary of its addresses (docs/request-log.md (The block)): a filter's networks hold every match. */
describe("the request log's address networks", () => {
  it('names an IPv4 address by its /24 and an IPv6 address by its /48, never the same number', () => {
    expect(networkOf('10.1.2.3')).toBe(10 * 65536 + 1 * 256 + 2);
    expect(networkOf('10.1.2.250')).toBe(networkOf('10.1.2.3'));
    expect(networkOf('10.1.3.3')).not.toBe(networkOf('10.1.2.3'));
    expect(networkOf('::a01:203')).toBe(2 ** 48);
    expect(networkOf('2001:db8:1:ffff::1')).toBe(networkOf('2001:db8:1::'));
    for (const text of ['not an address', '10.1.2', '10.1.2.3.4', '256.1.2.3', '10.1.2.256', '10..2.3', '1000.1.2.3'])
      expect(networkOf(text)).toBeUndefined();
  });

  it("gives every address a range holds one of the range's networks, for ranges of up to 256 networks", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          ipv4.chain((address) => fc.tuple(fc.constant(address), fc.integer({ min: 16, max: 32 }))),
          ipv6.chain((address) => fc.tuple(fc.constant(address), fc.integer({ min: 40, max: 128 }))),
        ),
        ([address, prefix]) => {
          const parsed = ipaddr.parse(address);
          const network = ipaddr.IPv4.isValid(address)
            ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${prefix}`)
            : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${prefix}`);
          const range = `${network.toString()}/${prefix}`;
          const networks = networksOf(range);
          expect(networks).toBeDefined();
          expect(networks).toContain(networkOf(parsed.toString()));
          expect(networks!.length).toBeLessThanOrEqual(256);
        },
      ),
    );
  });

  it('reads a wider range by time alone, and a single address as its own network', () => {
    expect(networksOf('10.0.0.0/15')).toBeUndefined();
    expect(networksOf('2001:db8::/39')).toBeUndefined();
    expect(networksOf('198.51.100.0/16')).toHaveLength(256);
    expect(networksOf('198.51.100.7')).toEqual([networkOf('198.51.100.7')]);
    expect(networksOf('2001:db8::1')).toEqual([networkOf('2001:db8::1')]);
  });
});
