import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { IpRanges } from '../../../src/shared/ip-ranges.ts';

/** The compiled allowlist the key check matches every request against (docs/keys.md (IP allowlists)). */
describe('compiled ranges', () => {
  const ranges = new IpRanges(['203.0.113.7', '198.51.100.0/24', '2001:db8::/32', '::1', '10.0.0.0/8']);

  it('allows exactly the addresses inside one of its ranges', () => {
    const allowed = [
      '203.0.113.7',
      '198.51.100.0',
      '198.51.100.255',
      '2001:db8::1',
      '2001:db8:ffff::',
      '::1',
      '10.255.0.1',
    ];
    const refused = ['203.0.113.8', '198.51.101.0', '2001:db9::', '2001:db7:ffff::', '::2', '11.0.0.0', '0.0.0.0'];
    expect(allowed.filter((address) => !ranges.allows(address))).toEqual([]);
    expect(refused.filter((address) => ranges.allows(address))).toEqual([]);
  });

  it('never lets an IPv4 address match an IPv6 range or the other way round', () => {
    const v4only = new IpRanges(['0.0.0.0/0']);
    const v6only = new IpRanges(['::/0']);
    expect([v4only.allows('2001:db8::1'), v6only.allows('203.0.113.7'), v4only.allows('203.0.113.7')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('refuses what is not an address at all', () => {
    expect(['', 'unknown', '203.0.113.7/32', ' 203.0.113.7'].some((text) => ranges.allows(text))).toBe(false);
  });

  it('agrees with ipaddr.js matching on random addresses and ranges of both families', () => {
    const v4 = fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }));
    fc.assert(
      fc.property(v4, fc.integer({ min: 0, max: 0xffffffff }), ([base, prefix], probe) => {
        const network = ipaddr.IPv4.networkAddressFromCIDR(`${v4Text(base)}/${prefix}`).toString();
        const entry = prefix === 32 ? network : `${network}/${prefix}`;
        const expected = ipaddr.IPv4.parse(v4Text(probe)).match(ipaddr.IPv4.parse(network), prefix);
        expect(new IpRanges([entry]).allows(v4Text(probe))).toBe(expected);
        expect(new IpRanges([entry]).allows(network)).toBe(true);
      }),
    );
    const words = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(words, fc.integer({ min: 0, max: 128 }), words, (base, prefix, probe) => {
        const network = ipaddr.IPv6.networkAddressFromCIDR(`${new ipaddr.IPv6(base).toString()}/${prefix}`);
        if (network.isIPv4MappedAddress()) return;
        const probeAddress = new ipaddr.IPv6(probe);
        if (probeAddress.isIPv4MappedAddress()) return;
        const entry = prefix === 128 ? network.toString() : `${network.toString()}/${prefix}`;
        expect(new IpRanges([entry]).allows(probeAddress.toString())).toBe(probeAddress.match(network, prefix));
      }),
    );
  });
});

function v4Text(bits: number): string {
  return [24, 16, 8, 0].map((shift) => (bits >>> shift) & 255).join('.');
}
