import type { Actor } from '../shared/actor.ts';
import { PermissionDeniedError, type FieldError } from '../shared/errors.ts';
import { passwordProblem } from '../shared/password-rules.ts';
import { isRole, type Role } from '../shared/roles.ts';
import { isValidEmail, nameProblem } from '../shared/text-rules.ts';

/** Only a System Administrator may grant or remove the System Administrator role (docs/roles.md). */
export function guardAdministratorGrant(actor: Actor, before: readonly string[], after: readonly string[]): void {
  if (actor.type !== 'user' || actor.roles.includes('system_administrator')) return;
  if (before.includes('system_administrator') !== after.includes('system_administrator')) {
    throw new PermissionDeniedError(
      'system_administrator',
      'Only a System Administrator may grant or remove the system_administrator role.',
    );
  }
}

/** A System Administrator's account (password, name, roles) is changed only by a System Administrator. */
export function guardAdministratorAccount(actor: Actor, targetRoles: readonly string[]): void {
  if (actor.type !== 'user' || actor.roles.includes('system_administrator')) return;
  if (targetRoles.includes('system_administrator')) {
    throw new PermissionDeniedError(
      'system_administrator',
      "Only a System Administrator may change a System Administrator's account.",
    );
  }
}

export function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((role) => b.includes(role));
}

export function checkEmail(raw: unknown, errors: FieldError[]): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!isValidEmail(email)) errors.push({ path: 'email', message: 'Enter a valid e-mail address.' });
  return email;
}

export function checkName(raw: unknown, errors: FieldError[]): string {
  const problem = nameProblem(raw);
  if (problem) errors.push({ path: 'name', message: problem });
  return typeof raw === 'string' ? raw.trim() : '';
}

/** The password rule (docs/sign-in.md (Passwords)), reported under `path`. */
export async function checkPassword(raw: unknown, email: string, errors: FieldError[], path = 'password') {
  const problem = await passwordProblem(raw, email);
  if (problem) errors.push({ path, message: problem });
}

export function checkRoles(raw: readonly string[], errors: FieldError[]): Role[] {
  const unknown = raw.filter((role) => !isRole(role));
  if (unknown.length > 0) errors.push({ path: 'roles', message: `Unknown role(s): ${unknown.join(', ')}.` });
  return [...new Set(raw.filter(isRole))];
}
