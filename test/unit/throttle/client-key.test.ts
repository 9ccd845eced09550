import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../src/throttle/client-key.ts';

describe('clientKey: the client a sign-in throttle counts', () => {
  it('is the address itself for IPv4, an IPv4-mapped IPv6 address included', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('is the /64 for IPv6, however the address is written', () => {
    expect(clientKey('2001:db8:aa:1::1')).toBe('2001:db8:aa:1::/64');
    expect(clientKey('2001:0db8:00aa:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:aa:1::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8:aa:2::1')).not.toBe(clientKey('2001:db8:aa:1::1'));
  });

  it('keeps what is not an address as it is (no client address: one client)', () => {
    expect(clientKey('')).toBe('');
  });
});
