import { randomBytes } from 'node:crypto';
import { sha256Hex, type RandomBytes } from '../../shared/digest.ts';
import { CHECKSUM_LENGTH, checksumOf } from './checksum.ts';

/**
 * Key format (docs/keys.md): `ask_` + 64 characters of [A-Za-z0-9], 68 in all: 58 from a CSPRNG, then
 * a 6-character checksum (./checksum.ts). Keys minted before checksums have 64 random characters
 * and the same shape, so `hasKeyFormat` accepts both.
 */
export const KEY_PREFIX = 'ask_';
export const KEY_RANDOM_LENGTH = 58;
export const KEY_LENGTH = KEY_PREFIX.length + KEY_RANDOM_LENGTH + CHECKSUM_LENGTH;
export const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const KEY_PATTERN = /^ask_[A-Za-z0-9]{64}$/;
// 248 = 4 × 62: bytes at or above it are thrown away so every character is equally likely.
const UNBIASED_BYTE_LIMIT = 256 - (256 % KEY_ALPHABET.length);

/** A new secret: 58 characters from a CSPRNG by rejection sampling (no modulo bias), then the checksum. */
export function generateSecret(random: RandomBytes = randomBytes): string {
  let body = '';
  while (body.length < KEY_RANDOM_LENGTH) {
    for (const byte of random(KEY_RANDOM_LENGTH)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      body += KEY_ALPHABET[byte % KEY_ALPHABET.length];
      if (body.length === KEY_RANDOM_LENGTH) break;
    }
  }
  return KEY_PREFIX + body + checksumOf(KEY_PREFIX + body);
}

export function hasKeyFormat(value: string): boolean {
  return value.length === KEY_LENGTH && KEY_PATTERN.test(value);
}

/** The stored form of a key: its SHA-256 (a key carries 345 random bits; see sha256Hex for why not a slow KDF). */
export function digestSecret(secret: string): string {
  return sha256Hex(secret);
}

/** `ask_…` plus the last four characters: enough to tell keys apart, useless to an attacker. */
export function hintOf(secret: string): string {
  return `${KEY_PREFIX}…${secret.slice(-4)}`;
}
