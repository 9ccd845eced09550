import { z } from 'zod';
import { PermissionDeniedError } from './errors.ts';
import { PERMISSIONS, type Permission } from './roles.ts';
import { tenantRefSchema } from './tenant-ref.ts';

/**
 * Who a request made with a key acts as, and what it may do (`GET /api/v1/whoami`). Every feature
 * a key can reach checks it, so it lives below the features: none of them imports `keys` for it.
 */
export const principalSchema = z.object({
  tenant: tenantRefSchema,
  key: z.object({ id: z.string(), name: z.string(), hint: z.string(), expires_at: z.string().nullable() }),
  acts_as: z.union([
    z.object({ type: z.literal('user'), id: z.string(), email: z.string() }),
    z.object({ type: z.literal('system') }),
  ]),
  // Not .readonly(): that becomes `readOnly: true` in OpenAPI, which generated clients mistype.
  permissions: z.array(z.enum(PERMISSIONS)),
});
/**
 * An OAuth access token's principal (docs/oauth.md) carries `credential` and `app` too; its `key`
 * names the grant (`{id: grant id, name: app name, hint: ''}`) for usage and the request log.
 */
export type Principal = z.infer<typeof principalSchema> & {
  credential?: 'oauth';
  app?: { client_id: string; name: string };
};

/** A key's authority must hold the permission; under creator authority, the creator's roles now. */
export function requireKeyPermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.includes(permission)) {
    const credential = principal.credential === 'oauth' ? 'access token' : 'key';
    throw new PermissionDeniedError(
      permission,
      principal.acts_as.type === 'user'
        ? `This ${credential} acts as ${principal.acts_as.email}, who lacks the permission ${permission}.`
        : `This key lacks the permission ${permission}.`,
    );
  }
}
