/** Roles and the permissions they hold (docs/roles.md). */
export const ROLES = ['system_administrator', 'administrator', 'operations', 'crew'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = ['api_keys:manage', 'audit:read', 'users:manage', 'flights:read'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const permissionsByRole: Record<Role, readonly Permission[]> = {
  system_administrator: ['api_keys:manage', 'audit:read', 'users:manage', 'flights:read'],
  administrator: ['users:manage', 'flights:read'],
  operations: ['flights:read'],
  crew: [],
};

/** What a key may do through the public API and MCP; a `system` authority key holds all of it. */
export const API_PERMISSIONS: readonly Permission[] = ['flights:read'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function permissionsOf(roles: readonly string[]): Permission[] {
  const granted = new Set<Permission>();
  for (const role of roles) {
    if (isRole(role)) for (const permission of permissionsByRole[role]) granted.add(permission);
  }
  return PERMISSIONS.filter((permission) => granted.has(permission));
}
