import { describe, expect, it } from 'vitest';
import { canonicalAddress, canonicalIpEntry, canonicalIpList } from '../../../src/shared/ip-entries.ts';

const entry = (raw: string) => {
  const result = canonicalIpEntry(raw);
  return result.ok ? result.entry : `refused: ${result.problem}`;
};

/** How allowlist entries and TRUSTED_PROXIES are read and written back (docs/keys.md (IP allowlists)). */
describe('allowlist entries', () => {
  it('writes IPv4 addresses and ranges back unchanged, and drops /32 from a single address', () => {
    expect(['203.0.113.7', '198.51.100.0/24', '0.0.0.0/0', '10.0.0.0/8', '192.0.2.1/32'].map(entry)).toEqual([
      '203.0.113.7',
      '198.51.100.0/24',
      '0.0.0.0/0',
      '10.0.0.0/8',
      '192.0.2.1',
    ]);
  });

  it('writes IPv6 lowercase and compressed, and drops /128 from a single address', () => {
    expect(
      ['2001:DB8::/32', '2001:0db8:0000:0000:0000:0000:0000:0001', 'FE80::/10', '::/0', '2001:db8::1/128', '::1'].map(
        entry,
      ),
    ).toEqual(['2001:db8::/32', '2001:db8::1', 'fe80::/10', '::/0', '2001:db8::1', '::1']);
  });

  it('reads an IPv4-mapped IPv6 address or range as the IPv4 one it names', () => {
    expect(
      ['::ffff:203.0.113.7', '::FFFF:cb00:7107', '::ffff:198.51.100.0/120', '::ffff:0.0.0.0/96'].map(entry),
    ).toEqual(['203.0.113.7', '203.0.113.7', '198.51.100.0/24', '0.0.0.0/0']);
  });

  it('refuses a range with host bits set, naming the range that was probably meant', () => {
    expect(entry('10.0.0.1/8')).toBe('refused: "10.0.0.1/8" has host bits set: the range is 10.0.0.0/8.');
    expect(entry('2001:db8::1/32')).toBe('refused: "2001:db8::1/32" has host bits set: the range is 2001:db8::/32.');
    expect(entry('198.51.100.128/24')).toMatch(/host bits set: the range is 198\.51\.100\.0\/24/);
  });

  it('refuses a prefix out of range for the family, or not a whole number', () => {
    expect(entry('10.0.0.0/33')).toBe('refused: "10.0.0.0/33": the prefix length must be 0–32.');
    expect(entry('2001:db8::/129')).toBe('refused: "2001:db8::/129": the prefix length must be 0–128.');
    expect(entry('::ffff:10.0.0.0/95')).toBe('refused: "::ffff:10.0.0.0/95": the prefix length must be 96–128.');
    for (const bad of ['10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/08', '10.0.0.0/8/8', '10.0.0.0/ 8', '10.0.0.0/1e1'])
      expect(entry(bad), bad).toMatch(/^refused: /);
  });

  it('refuses what is not an address, including spellings a lenient parser would read', () => {
    const bad = [
      '',
      'localhost',
      '203.0.113',
      '203.0.113.256',
      '127.1',
      '0x7f.0.0.1',
      '010.0.0.1',
      '1.2.3.4.5',
      '::ffff:127.1',
      'fe80::1%eth0',
      '[::1]',
      '2001:db8::g',
      '203.0.113.7:443',
      '1'.repeat(70),
    ];
    for (const raw of bad) expect(entry(raw), raw).toMatch(/^refused: /);
    expect(canonicalIpEntry(42).ok).toBe(false);
  });

  it('trims surrounding spaces, as a pasted line has them', () => {
    expect(entry('  203.0.113.7\t')).toBe('203.0.113.7');
  });

  it('reads single client addresses the same way, and nothing with a prefix', () => {
    expect(['::ffff:127.0.0.1', '2001:DB8::1', '127.0.0.1', '10.0.0.0/8', 'x'].map(canonicalAddress)).toEqual([
      '127.0.0.1',
      '2001:db8::1',
      '127.0.0.1',
      null,
      null,
    ]);
  });
});

describe('an allowlist', () => {
  it('drops duplicates after canonicalising, keeping the first where it stood', () => {
    expect(
      canonicalIpList([
        '10.0.0.0/8',
        '203.0.113.7',
        '2001:DB8::/32',
        '203.0.113.7/32',
        '::ffff:203.0.113.7',
        '10.0.0.0/8',
      ]),
    ).toEqual({ ok: true, entries: ['10.0.0.0/8', '203.0.113.7', '2001:db8::/32'] });
  });

  it('names every bad entry by its index', () => {
    const result = canonicalIpList(['203.0.113.7', 'nope', '10.0.0.1/8']);
    expect(result.ok ? [] : result.problems.map(({ index, problem }) => [index, problem])).toEqual([
      [1, '"nope" is not an IPv4 or IPv6 address or range (e.g. 203.0.113.7, 2001:db8::/32).'],
      [2, '"10.0.0.1/8" has host bits set: the range is 10.0.0.0/8.'],
    ]);
  });
});
