import type { KeyFacts } from '../../src/keys/key-facts.ts';

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
