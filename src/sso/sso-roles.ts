import { isRole, type Role } from '../shared/roles.ts';

export type RoleRules = { roleClaim: string | null; roleMap: Record<string, string[]> };

/**
 * The roles a provider's claims give, or undefined when they say nothing (no role claim set, or
 * the claim absent): then the user's roles stay as they are. A claim present but mapping to no
 * role gives none: a person the provider no longer puts in a mapped group loses the roles.
 */
export function rolesFromClaims(claims: Record<string, unknown>, rules: RoleRules): Role[] | undefined {
  if (rules.roleClaim === null || !Object.hasOwn(claims, rules.roleClaim)) return undefined;
  const raw = claims[rules.roleClaim];
  const values = Array.isArray(raw) ? raw : [raw];
  const roles = new Set<Role>();
  for (const value of values) {
    if (typeof value !== 'string' || !Object.hasOwn(rules.roleMap, value)) continue;
    for (const role of rules.roleMap[value]!) if (isRole(role)) roles.add(role);
  }
  return [...roles].sort();
}

/** The e-mail's domain, lower-cased; an address without one has none. */
export function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  return at < 1 ? undefined : email.slice(at + 1).toLowerCase();
}
