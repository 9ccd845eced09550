import { describe, expect, it } from 'vitest';
import { CHECKSUM_ALPHABET, checksumOf, hasValidChecksum } from '../../../src/keys/format/checksum.ts';
import { generateSecret, hasKeyFormat } from '../../../src/keys/format/secret.ts';

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), table-driven: independent of zlib. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function referenceCrc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
/** Base 62 by BigInt division, another route than the one under test. */
function referenceBase62(value: number): string {
  let n = BigInt(value);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = CHECKSUM_ALPHABET[Number(n % 62n)]! + out;
    n /= 62n;
  }
  return out;
}

// Published in the README (Secret scanning): the checksum of the first 62 characters of a key.
const VECTORS = [
  { first62: `ask_${'A'.repeat(58)}`, crc32: 0x7976e259, checksum: '2DuXnd' },
  { first62: `ask_${'0123456789'.repeat(5)}abcdefgh`, crc32: 0xdb78e447, checksum: '41Br0x' },
  // CRC below 62^5: exercises the left padding with `0`.
  { first62: `ask_${'J'.repeat(58)}`, crc32: 0x02580576, checksum: '02ezhu' },
];

describe('checksumOf', () => {
  it('matches the published vectors, each proven by an independent CRC-32 and base-62 encoding', () => {
    for (const { first62, crc32, checksum } of VECTORS) {
      expect(first62).toHaveLength(62);
      expect(referenceCrc32(first62), first62).toBe(crc32);
      expect(referenceBase62(crc32), first62).toBe(checksum);
      expect(checksumOf(first62), first62).toBe(checksum);
    }
  });

  it('agrees with the independent implementation on random inputs', () => {
    for (let i = 0; i < 500; i++) {
      const first62 = generateSecret().slice(0, 62);
      expect(checksumOf(first62)).toBe(referenceBase62(referenceCrc32(first62)));
    }
  });

  it('checks the reference CRC-32 against the standard check value', () => {
    expect(referenceCrc32('123456789')).toBe(0xcbf43926);
  });
});

describe('hasValidChecksum', () => {
  it('accepts the vectors as full keys and every generated secret', () => {
    for (const { first62, checksum } of VECTORS) expect(hasValidChecksum(first62 + checksum)).toBe(true);
    for (let i = 0; i < 200; i++) expect(hasValidChecksum(generateSecret())).toBe(true);
  });

  it('rejects a key with any single character changed', () => {
    const secret = generateSecret();
    for (let position = 4; position < 68; position++) {
      const original = secret[position]!;
      const replacement = original === 'A' ? 'B' : 'A';
      const altered = secret.slice(0, position) + replacement + secret.slice(position + 1);
      expect(hasValidChecksum(altered), `position ${position}`).toBe(false);
    }
  });

  it('rejects wrong lengths, a wrong prefix and characters outside [A-Za-z0-9]', () => {
    const secret = generateSecret();
    expect(hasValidChecksum(secret.slice(0, 67))).toBe(false);
    expect(hasValidChecksum(`${secret}A`)).toBe(false);
    expect(hasValidChecksum(`ASK_${secret.slice(4)}`)).toBe(false);
    const first62 = `ask_${'-'.repeat(58)}`;
    expect(hasValidChecksum(first62 + checksumOf(first62))).toBe(false);
    expect(hasValidChecksum('')).toBe(false);
  });

  it('does not hold for a legacy-shaped key of 64 random characters, which still has the key format', () => {
    const legacy = `ask_${'A'.repeat(64)}`;
    expect(hasKeyFormat(legacy)).toBe(true);
    expect(hasValidChecksum(legacy)).toBe(false);
  });
});
