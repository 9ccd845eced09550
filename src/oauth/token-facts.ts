import { z } from 'zod';
import type { Accepted } from '../keys/check/decide.ts';
import type { CachedFacts } from '../revocation/key-cache.ts';
import { API_PERMISSIONS, permissionsOf, PERMISSIONS } from '../shared/roles.ts';
import type { Principal } from '../shared/principal.ts';
import { principalSchema } from '../shared/principal.ts';

/**
 * Everything the resource side needs about one access token, read on a miss and cached by the
 * token's digest, like a key's facts: invalidated by its grant (`{type:'grant'}`), its person
 * (`{type:'user'}`: a role change, a deletion) and its tenant. Only the expiry and the audience are
 * decided per request.
 */
export type TokenFacts = CachedFacts & {
  /** The grant's id: also `keyId`, which usage and the request log name. */
  grantId: string;
  /** The one resource the token was issued for: `{PUBLIC_URL}/mcp` or `{PUBLIC_URL}/api/v1`. */
  audience: string;
  /** Epoch milliseconds. */
  expiresAtMs: number;
  principal: Principal;
  /** The admission's `admitted` outcome, built once per cache fill: admitting a token allocates nothing. */
  admitted: Accepted;
};

/** What the repository reads for a token: its record, its grant's app, its person and tenant now. */
export type StoredTokenFacts = {
  grantId: string;
  audience: string;
  expiresAtMs: number;
  app: { clientId: string; name: string };
  person: { id: string; email: string; roles: readonly string[] };
  tenant: { id: string; slug: string; name: string };
};

/** A token acts as its person with that person's roles now, whatever the tenant's key authority. */
export function tokenFactsOf(stored: StoredTokenFacts): TokenFacts {
  const { person, tenant, app } = stored;
  const permissions = permissionsOf(person.roles).filter((permission) => API_PERMISSIONS.includes(permission));
  const principal: Principal = {
    tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name },
    // The request log's and usage's view of the credential: the grant, named by its app, no hint.
    key: { id: stored.grantId, name: app.name, hint: '', expires_at: null },
    acts_as: { type: 'user', id: person.id, email: person.email },
    permissions,
    credential: 'oauth',
    app: { client_id: app.clientId, name: app.name },
  };
  return {
    keyId: stored.grantId,
    grantId: stored.grantId,
    tenantId: tenant.id,
    creatorId: person.id,
    audience: stored.audience,
    expiresAtMs: stored.expiresAtMs,
    principal,
    admitted: {
      ok: true,
      status: 'admitted',
      credential: 'oauth',
      principal,
      keyId: stored.grantId,
      rateLimit: undefined,
      quota: undefined,
    },
  };
}

/** `whoami` (API and MCP) for an access token (docs/oauth.md). */
export const tokenWhoamiSchema = z.object({
  tenant: principalSchema.shape.tenant,
  credential: z.literal('oauth'),
  app: z.object({ client_id: z.string(), name: z.string() }),
  acts_as: z.object({ type: z.literal('user'), id: z.string(), email: z.string() }),
  permissions: z.array(z.enum(PERMISSIONS)),
});
