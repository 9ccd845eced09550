import { permissionsOf } from './roles.ts';

/** Who must hold a second factor to use the back office, per tenant (docs/sign-in.md). */
export const SECOND_FACTOR_REQUIREMENTS = ['none', 'key_managers', 'everyone'] as const;
export type SecondFactorRequirement = (typeof SECOND_FACTOR_REQUIREMENTS)[number];

/**
 * Whether the tenant's rule covers this user: `key_managers` are those who can mint keys or change
 * who can (api_keys:manage, users:manage); `everyone` is everyone.
 */
export function requirementCovers(requirement: SecondFactorRequirement, roles: readonly string[]): boolean {
  if (requirement === 'everyone') return true;
  if (requirement === 'none') return false;
  const permissions = permissionsOf(roles);
  return permissions.includes('api_keys:manage') || permissions.includes('users:manage');
}

/**
 * A covered user without a second factor may only enrol one. A single sign-on counts as having
 * one: the identity provider holds the factors.
 */
export function isEnrolmentOnly(
  requirement: SecondFactorRequirement,
  user: { roles: readonly string[]; hasSecondFactor: boolean },
  method: string,
): boolean {
  return requirementCovers(requirement, user.roles) && !user.hasSecondFactor && method !== 'sso';
}
