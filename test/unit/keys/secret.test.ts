import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksumOf } from '../../../src/keys/format/checksum.ts';
import { digestSecret, generateSecret, hasKeyFormat, hintOf, KEY_ALPHABET } from '../../../src/keys/format/secret.ts';
import type { RandomBytes } from '../../../src/shared/digest.ts';

/** `ask_` + the 58 random characters + their checksum: what a secret built from `body` must be. */
const keyOf = (body: string) => `ask_${body}${checksumOf(`ask_${body}`)}`;

/** A random source that hands out the given buffers in order, then `rest` forever. */
function scripted(buffers: number[][], rest: number): RandomBytes {
  const queue = [...buffers];
  return (size) => Buffer.from(queue.shift() ?? new Array<number>(size).fill(rest));
}

describe('generateSecret', () => {
  it('makes ask_ followed by 64 characters of [A-Za-z0-9], 68 in all, the last six the checksum of the rest', () => {
    for (let i = 0; i < 200; i++) {
      const secret = generateSecret();
      expect(secret).toMatch(/^ask_[A-Za-z0-9]{64}$/);
      expect(secret).toHaveLength(68);
      expect(secret.slice(62)).toBe(checksumOf(secret.slice(0, 62)));
    }
  });

  it('uses the 62-character alphabet exactly', () => {
    expect(new Set(KEY_ALPHABET).size).toBe(62);
    expect([...KEY_ALPHABET].sort().join('')).toBe('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
  });

  it('maps every byte below 248 to exactly one character, four bytes per character', () => {
    const bytesPerCharacter = new Map<string, number[]>();
    for (let byte = 0; byte < 248; byte++) {
      const secret = generateSecret(scripted([new Array<number>(58).fill(byte)], 0));
      const body = secret.slice(4, 62);
      expect(new Set(body).size).toBe(1);
      bytesPerCharacter.set(body[0]!, [...(bytesPerCharacter.get(body[0]!) ?? []), byte]);
    }
    expect(bytesPerCharacter.size).toBe(62);
    for (const bytes of bytesPerCharacter.values()) expect(bytes).toHaveLength(4);
  });

  it('throws away bytes 248–255 instead of folding them onto the first characters (no modulo bias)', () => {
    for (let byte = 248; byte < 256; byte++) {
      // A rejected byte contributes nothing; the secret comes entirely from the next buffer (byte 1 = "B").
      const secret = generateSecret(scripted([new Array<number>(58).fill(byte)], 1));
      expect(secret, `byte ${byte}`).toBe(keyOf('B'.repeat(58)));
    }
  });

  it('keeps drawing until it has 58 accepted characters when rejections are interleaved', () => {
    const interleaved = Array.from({ length: 58 }, (_, i) => (i % 2 === 0 ? 250 : 1));
    const secret = generateSecret(scripted([interleaved, interleaved, interleaved], 255 /* never used */));
    expect(secret).toBe(keyOf('B'.repeat(58)));
  });

  it('accepts 247, the highest unbiased byte', () => {
    expect(generateSecret(scripted([new Array<number>(58).fill(247)], 0))).toBe(
      keyOf(KEY_ALPHABET[247 % 62]!.repeat(58)),
    );
  });

  it('spreads the 58 random characters of real keys evenly over the alphabet (chi-square)', () => {
    const counts = new Map<string, number>([...KEY_ALPHABET].map((c) => [c, 0]));
    const keys = 2500;
    const seen = new Set<string>();
    for (let i = 0; i < keys; i++) {
      const secret = generateSecret();
      seen.add(secret);
      // The last six are a checksum, not drawn from the CSPRNG: CRC-32 in base 62 favours low digits.
      for (const c of secret.slice(4, 62)) counts.set(c, counts.get(c)! + 1);
    }
    expect(seen.size).toBe(keys);
    const expected = (keys * 58) / 62;
    const chiSquare = [...counts.values()].reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: 114 is p ≈ 0.00005. Modulo bias (8 characters 25 % likelier) scores ~1,900.
    expect(chiSquare).toBeLessThan(114);
    expect(counts.size).toBe(62);
  });
});

describe('hasKeyFormat', () => {
  it('accepts a generated key and rejects anything off by one character or in the wrong alphabet', () => {
    const secret = generateSecret();
    expect(hasKeyFormat(secret)).toBe(true);
    expect(hasKeyFormat(secret.slice(0, 67))).toBe(false);
    expect(hasKeyFormat(`${secret}A`)).toBe(false);
    expect(hasKeyFormat(`ASK_${secret.slice(4)}`)).toBe(false);
    expect(hasKeyFormat(`ask-${secret.slice(4)}`)).toBe(false);
    expect(hasKeyFormat(`${secret.slice(0, 67)}-`)).toBe(false);
    expect(hasKeyFormat(`${secret.slice(0, 67)}é`)).toBe(false);
    expect(hasKeyFormat('')).toBe(false);
  });
});

describe('hintOf and digestSecret', () => {
  it('shows ask_… and the last four characters', () => {
    const secret = generateSecret();
    expect(hintOf(secret)).toBe(`ask_\u2026${secret.slice(-4)}`);
    expect(hintOf(`ask_${'a'.repeat(60)}Xy9Z`)).toBe('ask_…Xy9Z');
  });

  it('digests with SHA-256 in hex', () => {
    const secret = generateSecret();
    expect(digestSecret(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(digestSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
