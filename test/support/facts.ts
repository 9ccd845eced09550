import type { KeyFacts, StoredKeyFacts } from '../../src/keys/key-facts.ts';

/** Key facts as the repository would read them; override what a test is about. */
export function factsOf(overrides: Partial<KeyFacts> = {}): KeyFacts {
  const keyId = overrides.keyId ?? 'key-1';
  const tenantId = overrides.tenantId ?? 'tenant-1';
  const creatorId = overrides.creatorId === undefined ? 'user-1' : overrides.creatorId;
  const authority = overrides.authority ?? 'creator';
  return {
    keyId,
    tenantId,
    creatorId,
    enabled: true,
    expiresAtMs: null,
    retiresAtMs: null,
    authority,
    rateLimit: null,
    quota: null,
    allowedIps: null,
    principal: {
      tenant: { id: tenantId, slug: 'acme', name: 'Acme' },
      key: { id: keyId, name: 'Key', hint: 'ask_…abcd', expires_at: null },
      acts_as:
        authority === 'creator' && creatorId
          ? { type: 'user', id: creatorId, email: 'creator@example.test' }
          : { type: 'system' },
      permissions: ['flights:read'],
    },
    ...overrides,
  };
}

/** A string as a database row holds it: decoded from the wire on its own, shared with nothing. */
const decoded = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

export type StoredKind = 'system' | 'creator' | 'limited';

/**
 * Key `n`'s stored facts as the digest query returns them: a tenant in 1,000, five creators a
 * tenant; `system` keys act for their tenant; `limited` keys also have a rate limit, a quota and
 * an allowlist of two ranges.
 */
export function storedFactsOf(n: number, kind: StoredKind): StoredKeyFacts {
  const tenant = n % 1_000;
  const creator = kind === 'system' ? null : `00000000-0000-4000-9000-${String(n % 5_000).padStart(12, '0')}`;
  const limited = kind === 'limited';
  return {
    key: {
      id: decoded(`00000000-0000-4000-a000-${String(n).padStart(12, '0')}`),
      tenantId: decoded(`00000000-0000-4000-8000-${String(tenant).padStart(12, '0')}`),
      name: decoded(creator ? `orders service ${n}` : 'bench'),
      hint: decoded(`ask_…${String(n % 10_000).padStart(4, '0')}`),
      enabled: true,
      expiresAt: null,
      createdBy: creator && decoded(creator),
      retiresAt: null,
      rateLimitRequests: limited ? 100 : null,
      rateLimitWindow: limited ? '1m' : null,
      allowedIps: limited ? [decoded('203.0.113.0/24'), decoded('2001:db8::/32')] : null,
      quotaRequests: limited ? 10_000 : null,
      quotaPeriod: limited ? 'month' : null,
      quotaCounter: null,
    },
    tenant: {
      slug: decoded(`tenant-${tenant}`),
      name: decoded(`Tenant ${tenant}`),
      authority: creator ? 'creator' : 'system',
    },
    creator: creator ? { email: decoded(`user${n % 5_000}@example.test`), roles: [decoded('operations')] } : null,
  };
}
