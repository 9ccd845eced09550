import type { KeyFacts } from '../../../src/keys/key-facts.ts';
import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../../src/revocation/key-cache.ts';
import { factsOf } from '../../support/facts.ts';

const cache = (maxEntries = 100) => new KeyCache<KeyFacts>({ maxEntries, maxAgeMs: 60_000 });

describe('KeyCache', () => {
  it('returns undefined for a miss, the facts for a hit and null for a cached unknown key', () => {
    const c = cache();
    expect(c.get('d1')).toBeUndefined();
    const facts = factsOf();
    c.fill('d1', facts, c.currentEpoch());
    c.fill('d2', null, c.currentEpoch());
    expect(c.get('d1')).toBe(facts);
    expect(c.get('d2')).toBeNull();
  });

  it('measures age and the lease on its injected monotonic clock', () => {
    let now = 1_000;
    const c = new KeyCache<KeyFacts>({ maxEntries: 10, maxAgeMs: 500, monotonic: () => now });
    c.fill('d1', factsOf(), c.currentEpoch());
    c.serveUntil(1_300);
    now = 1_299;
    expect(c.get('d1')).toBeDefined();
    now = 1_300; // the lease ran out, the entry is still young
    expect(c.get('d1')).toBeUndefined();
    c.serveUntil(Number.POSITIVE_INFINITY);
    now = 1_499;
    expect(c.get('d1')).toBeDefined();
    now = 1_500; // aged out
    expect(c.get('d1')).toBeUndefined();
  });

  it('discards a fill that started before an invalidation (a slow read cannot resurrect stale facts)', () => {
    const c = cache();
    const epoch = c.currentEpoch();
    c.invalidate({ type: 'key', id: 'unrelated' });
    c.fill('d1', factsOf({ enabled: true }), epoch);
    expect(c.get('d1')).toBeUndefined();
    c.fill('d1', factsOf({ enabled: false }), c.currentEpoch());
    expect(c.get('d1')?.enabled).toBe(false);
  });

  it('invalidates by key, by creator and by tenant, leaving other entries', () => {
    const c = cache();
    const fill = (digest: string, keyId: string, creatorId: string, tenantId: string) =>
      c.fill(digest, factsOf({ keyId, creatorId, tenantId }), c.currentEpoch());
    fill('a', 'k-a', 'u-1', 't-1');
    fill('b', 'k-b', 'u-1', 't-1');
    fill('c', 'k-c', 'u-2', 't-1');
    fill('d', 'k-d', 'u-3', 't-2');

    c.invalidate({ type: 'key', id: 'k-a' });
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')?.keyId).toBe('k-b');

    c.invalidate({ type: 'user', id: 'u-1' });
    expect(c.get('b')).toBeUndefined();
    expect(c.get('c')?.keyId).toBe('k-c');

    c.invalidate({ type: 'tenant', id: 't-1' });
    expect(c.get('c')).toBeUndefined();
    expect(c.get('d')?.keyId).toBe('k-d');

    c.invalidate({ type: 'all' });
    expect(c.get('d')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('answers nothing, not even the facts last seen, once its lease has lapsed, and answers fills made meanwhile once renewed', () => {
    const c = cache();
    c.fill('a', factsOf({ keyId: 'k-a' }), c.currentEpoch());
    c.serveUntil(performance.now() + 60_000);
    expect(c.get('a')?.keyId).toBe('k-a');
    expect(c.lastKnown('a')?.keyId).toBe('k-a');
    c.serveUntil(performance.now() - 1);
    expect(c.get('a')).toBeUndefined();
    expect(c.lastKnown('a')).toBeUndefined();
    // A read-through outside the lease is kept: it is as fresh as the changes heard so far.
    c.fill('a', factsOf({ keyId: 'k-a', enabled: false }), c.currentEpoch());
    expect(c.get('a')).toBeUndefined();
    c.serveUntil(performance.now() + 60_000);
    expect(c.get('a')?.enabled).toBe(false);
  });

  it('starts empty when the feed resubscribes, and drops a fill that began before', () => {
    const c = cache();
    c.fill('a', factsOf(), c.currentEpoch());
    const before = c.currentEpoch();
    c.resubscribed();
    expect(c.get('a')).toBeUndefined();
    c.fill('a', factsOf(), before);
    expect(c.get('a')).toBeUndefined();
    c.fill('a', factsOf(), c.currentEpoch());
    expect(c.get('a')).toBeDefined();
  });

  it('stays within its bound, evicting the least recently used entry', () => {
    const c = cache(2);
    c.fill('a', factsOf({ keyId: 'a' }), c.currentEpoch());
    c.fill('b', factsOf({ keyId: 'b' }), c.currentEpoch());
    c.get('a');
    c.fill('c', factsOf({ keyId: 'c' }), c.currentEpoch());
    expect(c.size).toBe(2);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')?.keyId).toBe('a');
    expect(c.get('c')?.keyId).toBe('c');
  });
});
