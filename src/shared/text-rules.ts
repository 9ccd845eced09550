/**
 * Rules for text people type (names, e-mail addresses, passwords), shared by every feature, the CLI and the
 * back office, so "valid" means one thing everywhere.
 */

export const NAME_MAX = 100;

// C0, DEL and C1 control characters: invisible in a list, confusing in logs.
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

/** Why a display name (a key's, a user's, a tenant's) is not acceptable, or null when it is. */
export function nameProblem(raw: unknown): string | null {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name.length === 0) return 'The name is required.';
  // Counted in characters, not UTF-16 units: an emoji is one character.
  if ([...name].length > NAME_MAX) return `The name must be at most ${NAME_MAX} characters.`;
  if (CONTROL_CHARACTERS.test(name)) return 'The name must not contain control characters.';
  return null;
}

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email) && email.length <= 320;
}

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
