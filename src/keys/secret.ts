import { createHash, randomBytes } from 'node:crypto';
import * as crypto from 'node:crypto';

/** Key format (docs/keys.md): `ask_` + 64 characters of [A-Za-z0-9], 68 in all. */
export const KEY_PREFIX = 'ask_';
export const KEY_RANDOM_LENGTH = 64;
export const KEY_LENGTH = KEY_PREFIX.length + KEY_RANDOM_LENGTH;
export const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const KEY_PATTERN = /^ask_[A-Za-z0-9]{64}$/;
// 248 = 4 × 62: bytes at or above it are thrown away so every character is equally likely.
const UNBIASED_BYTE_LIMIT = 256 - (256 % KEY_ALPHABET.length);

export type RandomBytes = (size: number) => Buffer;

/** A new secret from a CSPRNG by rejection sampling (no modulo bias). */
export function generateSecret(random: RandomBytes = randomBytes): string {
  let body = '';
  while (body.length < KEY_RANDOM_LENGTH) {
    for (const byte of random(KEY_RANDOM_LENGTH)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      body += KEY_ALPHABET[byte % KEY_ALPHABET.length];
      if (body.length === KEY_RANDOM_LENGTH) break;
    }
  }
  return KEY_PREFIX + body;
}

export function hasKeyFormat(value: string): boolean {
  return value.length === KEY_LENGTH && KEY_PATTERN.test(value);
}

// crypto.hash (Node 20.12+) skips the Hash object: measurably cheaper for one short input.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/**
 * SHA-256, not a password KDF: a key carries 381 bits of entropy, so a slow hash would add
 * cost to every request and no protection.
 */
export function digestSecret(secret: string): string {
  return oneShotHash ? oneShotHash('sha256', secret, 'hex') : createHash('sha256').update(secret).digest('hex');
}

/** `ask_…` plus the last four characters: enough to tell keys apart, useless to an attacker. */
export function hintOf(secret: string): string {
  return `${KEY_PREFIX}…${secret.slice(-4)}`;
}
