import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 letters: no I, L, O or U to misread when typed from paper. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 12 characters (60 bits), shown as three groups of four. Slow hashes and the sign-in throttle do the rest. */
const CODE_LENGTH = 12;

/** Ten new codes as the person sees them (`ABCD-EFGH-JKMN`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const characters = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return characters.match(/.{4}/g)!.join('-');
  });
}

/** Case, spaces and dashes do not matter: people copy codes from paper and password managers. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, '');
}

export async function hashRecoveryCode(code: string): Promise<string> {
  return hash(normalizeRecoveryCode(code));
}

/** Which stored hash the code matches, if any (all are tried, so timing says nothing of which). */
export async function matchingRecoveryCode<T extends { codeHash: string }>(
  stored: readonly T[],
  code: string,
): Promise<T | undefined> {
  const candidate = normalizeRecoveryCode(code);
  if (!/^[0-9A-Z]{12}$/.test(candidate)) return undefined;
  const matches = await Promise.all(stored.map((row) => verify(row.codeHash, candidate).catch(() => false)));
  return stored[matches.indexOf(true)];
}
