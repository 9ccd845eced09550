import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyFactsOf, type KeyFacts } from '../../../src/keys/key-facts.ts';
import { KeyCache } from '../../../src/revocation/key-cache.ts';
import { storedFactsOf } from '../../support/facts.ts';
import { retainedBytes } from '../../support/heap.ts';

// About 1,000 bytes for this key (docs/operations.md, Memory; bench/cache-entry-size.ts), some 1,070
// in a test worker; 2,200 before the shared parts were shared. The margin is for V8's variation.
const MAX_BYTES_PER_ENTRY = 1_500;

describe('what a cached key costs', () => {
  it('shares the parts keys hold equal (tenant, who it acts as, permissions, rate limit, allowlist), frozen', () => {
    const one = keyFactsOf(storedFactsOf(7, 'limited'));
    const other = keyFactsOf(storedFactsOf(5_007, 'limited')); // same tenant and creator, another key
    expect(other.keyId).not.toBe(one.keyId);
    expect(other.principal.tenant).toBe(one.principal.tenant);
    expect(other.principal.acts_as).toBe(one.principal.acts_as);
    expect(other.principal.permissions).toBe(one.principal.permissions);
    expect(other.rateLimit).toBe(one.rateLimit);
    expect(other.allowedIps).toBe(one.allowedIps);
    for (const shared of [one.principal.tenant, one.principal.acts_as, one.principal.permissions, one.rateLimit])
      expect(Object.isFrozen(shared)).toBe(true);
  });

  it('shares by content only: a renamed tenant or a changed limit is a value of its own', () => {
    const before = storedFactsOf(3, 'limited');
    const after = storedFactsOf(3, 'limited');
    after.tenant.name = 'Renamed';
    after.key.rateLimitRequests = 5;
    const [was, now] = [keyFactsOf(before), keyFactsOf(after)];
    expect(now.principal.tenant).toEqual({ id: was.tenantId, slug: was.principal.tenant.slug, name: 'Renamed' });
    expect(was.principal.tenant.name).toBe('Tenant 3');
    expect(now.rateLimit).toEqual({ requests: 5, window: '1m' });
    expect(was.rateLimit).toEqual({ requests: 100, window: '1m' });
  });

  it('stays within its bound of entries however many keys are seen', () => {
    const cache = new KeyCache<KeyFacts>({ maxEntries: 1_000, maxAgeMs: 60_000 });
    for (let n = 0; n < 5_000; n++)
      cache.fill(`digest ${n}`, keyFactsOf(storedFactsOf(n, 'system')), cache.currentEpoch());
    expect(cache.size).toBe(1_000);
    expect(cache.get('digest 4999')?.keyId).toBe(keyFactsOf(storedFactsOf(4_999, 'system')).keyId);
    expect(cache.get('digest 0')).toBeUndefined();
  });

  it(`keeps a key with limits and an allowlist, and whoami's body, under ${MAX_BYTES_PER_ENTRY} bytes`, () => {
    const entries = 20_000;
    const bytes = retainedBytes(() => {
      const cache = new KeyCache<KeyFacts>({ maxEntries: entries, maxAgeMs: 60_000 });
      const bodies: string[] = [];
      for (let n = 0; n < entries; n++) {
        const facts = keyFactsOf(storedFactsOf(n, 'limited'));
        cache.fill(createHash('sha256').update(`key ${n}`).digest('hex'), facts, cache.currentEpoch());
        bodies.push(Buffer.from(JSON.stringify(facts.principal), 'latin1').toString('latin1'));
      }
      return { cache, bodies };
    });
    expect(bytes / entries).toBeLessThan(MAX_BYTES_PER_ENTRY);
  });
});
