import { PASSWORD_MAX, PASSWORD_MIN } from './text-rules.ts';

/** An e-mail's local part shorter than this is too common a string to forbid inside a password. */
const LOCAL_PART_MIN = 4;
const COMMON_PASSWORDS_COUNTED = 10_000;

let commonPasswords: Promise<ReadonlySet<string>> | undefined;

/**
 * The 10,000 most common passwords of zxcvbn-ts's list, lower-cased. Loaded on first use (it takes
 * a moment to decompress), never at start: most processes never set a password.
 */
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_COUNTED).map((word) => word.toLowerCase())),
  );
  return commonPasswords;
}

/**
 * Why a new password is not acceptable, or null when it is (docs/sign-in.md (Passwords)): its
 * length, a common password, or the account's own e-mail name inside it. NIST SP 800-63B's rules:
 * no composition rules and no forced rotation, which only push people to predictable patterns.
 * The same rule for every path that sets a password: first start, CLI and back office.
 */
export async function passwordProblem(raw: unknown, email: string): Promise<string | null> {
  if (typeof raw !== 'string' || [...raw].length < PASSWORD_MIN || [...raw].length > PASSWORD_MAX) {
    return `The password must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters.`;
  }
  const lowered = raw.toLowerCase();
  if ((await loadCommonPasswords()).has(lowered)) {
    return 'This password is one of the 10,000 most common passwords; choose another.';
  }
  const localPart = email.trim().toLowerCase().split('@')[0] ?? '';
  if (localPart.length >= LOCAL_PART_MIN && lowered.includes(localPart)) {
    return 'The password must not contain the name part of your e-mail address.';
  }
  return null;
}
