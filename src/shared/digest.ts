import { createHash } from 'node:crypto';
import * as crypto from 'node:crypto';

/** Where secrets and tokens come from; injected so tests can make them predictable. */
export type RandomBytes = (size: number) => Buffer;

// crypto.hash (Node 20.12+) skips the Hash object: measurably cheaper for one short input.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/**
 * Hex SHA-256, for high-entropy secrets (API keys, session tokens): they need no slow KDF, so a
 * fast hash adds no cost to every request and loses no protection. Passwords use argon2id.
 */
export function sha256Hex(value: string): string {
  return oneShotHash ? oneShotHash('sha256', value, 'hex') : createHash('sha256').update(value).digest('hex');
}

/** A token of `size` random bytes, base64url: session, CSRF and sign-in tokens. Tests inject `random`. */
export function randomToken(size: number, random: RandomBytes = crypto.randomBytes): string {
  return random(size).toString('base64url');
}
