import type { Role } from '@contracts';

export type { Role };

/** Every role of the server's catalog, in order of power; `Record` makes a new role a type error here. */
export const ROLE_LABELS: Record<Role, string> = {
  system_administrator: 'System Administrator',
  administrator: 'Administrator',
  operations: 'Operations',
  crew: 'Crew',
};

export const ROLE_HELP: Record<Role, string> = {
  system_administrator: 'API keys, audit trail, users, flights',
  administrator: 'Users, flights',
  operations: 'Flights',
  crew: 'No back-office or API access',
};

export const ALL_ROLES = Object.keys(ROLE_LABELS) as Role[];

export function roleLabel(role: string): string {
  return role in ROLE_LABELS ? ROLE_LABELS[role as Role] : role;
}
