import { crc32 } from 'node:zlib';

/**
 * Key checksum (docs/keys.md, GitHub's token design): the CRC-32 (IEEE, as zlib computes it) of the
 * first 62 characters (`ask_` + 58 random ones), in base 62, left-padded with `0` to 6 characters.
 * It lets a scanner or the server tell a real key from a typo or a look-alike without a lookup.
 */
export const CHECKSUM_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const CHECKSUM_LENGTH = 6;
/** `ask_` + 58 CSPRNG characters: the part the checksum covers. */
export const CHECKSUMMED_LENGTH = 62;

const CHECKSUMMED_KEY_PATTERN = /^ask_[A-Za-z0-9]{64}$/;

/** 62^6 ≈ 5.7e10 > 2^32, so six characters always hold a CRC-32. */
export function checksumOf(first62: string): string {
  let value = crc32(first62);
  let digits = '';
  do {
    digits = CHECKSUM_ALPHABET[value % 62]! + digits;
    value = Math.floor(value / 62);
  } while (value > 0);
  return digits.padStart(CHECKSUM_LENGTH, '0');
}

/** True for a 68-character `ask_[A-Za-z0-9]{64}` whose last six characters are the checksum of the rest. */
export function hasValidChecksum(key: string): boolean {
  if (key.length !== CHECKSUMMED_LENGTH + CHECKSUM_LENGTH || !CHECKSUMMED_KEY_PATTERN.test(key)) return false;
  return checksumOf(key.slice(0, CHECKSUMMED_LENGTH)) === key.slice(CHECKSUMMED_LENGTH);
}
