import type { KeyAuthority } from '../shared/actor.ts';
import type { KeyQuota, QuotaPeriod, RateLimit, RateLimitWindow } from '../shared/limit-terms.ts';
import { API_PERMISSIONS, permissionsOf } from '../shared/roles.ts';
import { expiryDateOf } from './expiry.ts';
import { keyQuotaOf, rateLimitOf } from './key-view.ts';
import type { Principal } from '../shared/principal.ts';
import { IpRanges } from '../shared/ip-ranges.ts';
import { Interner } from '../shared/interner.ts';

/**
 * Everything the key check needs to know about one key, read in one query and cached by digest.
 * `principal` is built once per cache fill; only time-dependent facts are re-evaluated per request.
 */
export type KeyFacts = {
  keyId: string;
  tenantId: string;
  creatorId: string | null;
  enabled: boolean;
  /** Epoch milliseconds, or null for a key that never expires. */
  expiresAtMs: number | null;
  /** Epoch milliseconds from which a rolled key is refused, or null while it is not retiring. */
  retiresAtMs: number | null;
  authority: KeyAuthority;
  /** Counted by the limiter after the key check accepts (src/admission/admit.ts); null: no limit. */
  rateLimit: RateLimit | null;
  /** Counted after the rate limit accepts (docs/keys.md (Quotas)); null: no quota. */
  quota: KeyQuota | null;
  /**
   * Where the key may be used from, compiled once per cache fill so that a check is integer
   * comparisons (KeyCheck, before any rate limit); null: any address.
   */
  allowedIps: IpRanges | null;
  principal: Principal;
};

/** The stored facts `keyFactsOf` turns into KeyFacts: the key, its tenant, its creator now. */
export type StoredKeyFacts = {
  key: {
    id: string;
    tenantId: string;
    name: string;
    hint: string;
    enabled: boolean;
    expiresAt: Date | null;
    createdBy: string | null;
    retiresAt: Date | null;
    rateLimitRequests: number | null;
    rateLimitWindow: RateLimitWindow | null;
    allowedIps: string[] | null;
    quotaRequests: number | null;
    quotaPeriod: QuotaPeriod | null;
    quotaCounter: string | null;
  };
  tenant: { slug: string; name: string; authority: KeyAuthority };
  /** Null when the key has no creator any more (deleted account). */
  creator: { email: string; roles: readonly string[] } | null;
};

// A cached key shares with other keys what they hold equal (its tenant, who it acts as, its
// permissions, limit and allowlist): the cache then pays for each key's own fields only
// (docs/operations.md, Memory). Every shared value is frozen.
const tenantRefs = new Interner<Principal['tenant']>(10_000);
const actors = new Interner<Principal['acts_as']>(10_000);
const permissionSets = new Interner<Principal['permissions']>(100);
const rateLimits = new Interner<RateLimit>(1_000);
const allowlists = new Interner<IpRanges>(1_000);
const SYSTEM_ACTS_AS: Principal['acts_as'] = Object.freeze({ type: 'system' });

/**
 * What a key may do, decided from stored facts alone (no I/O): under `system` authority every API
 * permission; under `creator` authority the API permissions the creator's roles hold now.
 */
export function keyFactsOf({ key, tenant, creator }: StoredKeyFacts): KeyFacts {
  const creatorRef = key.createdBy && creator ? { id: key.createdBy, email: creator.email } : null;
  const permissions =
    tenant.authority === 'system'
      ? [...API_PERMISSIONS]
      : permissionsOf(creator?.roles ?? []).filter((permission) => API_PERMISSIONS.includes(permission));
  const tenantRef = tenantRefs.get(JSON.stringify([key.tenantId, tenant.slug, tenant.name]), () => ({
    id: key.tenantId,
    slug: tenant.slug,
    name: tenant.name,
  }));
  const actsAs =
    tenant.authority === 'system' || !creatorRef
      ? SYSTEM_ACTS_AS
      : actors.get(JSON.stringify([creatorRef.id, creatorRef.email]), () => ({ type: 'user', ...creatorRef }));
  const rateLimit = rateLimitOf(key);
  const allowed = key.allowedIps;
  return {
    keyId: key.id,
    tenantId: tenantRef.id,
    creatorId: actsAs.type === 'user' ? actsAs.id : (creatorRef?.id ?? null),
    enabled: key.enabled,
    expiresAtMs: key.expiresAt?.getTime() ?? null,
    retiresAtMs: key.retiresAt?.getTime() ?? null,
    authority: tenant.authority,
    rateLimit: rateLimit && rateLimits.get(`${rateLimit.requests}/${rateLimit.window}`, () => rateLimit),
    quota: keyQuotaOf(key),
    allowedIps: allowed === null ? null : allowlists.get(JSON.stringify(allowed), () => new IpRanges(allowed)),
    principal: {
      tenant: tenantRef,
      key: {
        id: key.id,
        name: key.name,
        hint: key.hint,
        expires_at: key.expiresAt ? expiryDateOf(key.expiresAt) : null,
      },
      acts_as: actsAs,
      permissions: permissionSets.get(permissions.join(' '), () => permissions),
    },
  };
}
