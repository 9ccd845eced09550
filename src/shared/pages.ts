import type { Permission } from './roles.ts';

/**
 * The back office's signed-in pages and the permission each needs (null: any signed-in person):
 * the server answers 403 (or redirects to sign-in) from this table, and the page shows its links
 * and "you need role X" from it.
 */
export const BACKOFFICE_PAGES = {
  '/backoffice/settings/api-keys': 'api_keys:manage',
  '/backoffice/settings/webhooks': 'api_keys:manage',
  '/backoffice/users': 'users:manage',
  // One's own password, second factors and sessions: every signed-in person, enrolment-only too.
  '/backoffice/settings/security': null,
} as const satisfies Record<string, Permission | null>;

export type BackofficePath = keyof typeof BACKOFFICE_PAGES;
