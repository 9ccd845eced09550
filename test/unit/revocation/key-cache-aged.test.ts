import type { KeyFacts } from '../../../src/keys/key-facts.ts';
import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../../src/revocation/key-cache.ts';
import { factsOf } from '../../support/facts.ts';

// maxAgeMs 0: every entry has aged out as soon as it is filled.
const aged = () => new KeyCache<KeyFacts>({ maxEntries: 100, maxAgeMs: 0 });

describe('KeyCache entries that aged out', () => {
  it('are no longer served but still vouch that the key was real', () => {
    const c = aged();
    c.fill('d1', factsOf(), c.currentEpoch());
    expect(c.get('d1')).toBeUndefined();
    expect(c.lastKnown('d1')).toBeUndefined();
    expect(c.knewValid('d1')).toBe(true);
  });

  it('never vouch for an unknown key, a key never seen, or a key a change evicted', () => {
    const c = aged();
    c.fill('unknown', null, c.currentEpoch());
    c.fill('changed', factsOf({ keyId: 'k-1' }), c.currentEpoch());
    c.invalidate({ type: 'key', id: 'k-1' });
    expect(c.knewValid('unknown')).toBe(false);
    expect(c.knewValid('never')).toBe(false);
    expect(c.knewValid('changed')).toBe(false);
  });

  it('forgets what it knew once the change feed resubscribes (changes may have been missed)', () => {
    const c = aged();
    c.fill('d1', factsOf(), c.currentEpoch());
    c.resubscribed();
    expect(c.knewValid('d1')).toBe(false);
  });
});
