import { describe, expect, it } from 'vitest';
import { factsOf } from '../../support/facts.ts';
import { keyCheckKit, secretNo } from '../../support/key-check-kit.ts';

/**
 * KeyCheck's slow path for a client that keeps failing (docs/api.md (errors)): it is blocked, yet its valid keys
 * keep working, and its guesses cost at most a fixed budget of lookups.
 */
describe('KeyCheck: a blocked client', () => {
  const FAILURES = 3;
  const BUDGET = 4;

  /** A kit whose client `c` has just been blocked by guesses of unknown, well-formed keys. */
  async function blocked() {
    const kit = keyCheckKit({ failures: FAILURES, lookupsWhileBlocked: BUDGET });
    const outcomes = [];
    for (let i = 0; i < FAILURES; i++) outcomes.push(await kit.check(secretNo(i, 'g'), 'c'));
    // FAILURES answers say invalid; the attempt after them is blocked.
    expect(outcomes).toEqual(Array.from({ length: FAILURES }, () => ({ ok: false, reason: 'api_key_invalid' })));
    expect(await kit.check(secretNo(100, 'g'), 'c')).toEqual({ ok: false, reason: 'throttled', retryAfterSeconds: 60 });
    return kit;
  }

  it('looks up at most the budget of uncached well-formed keys, and refuses every guess as throttled', async () => {
    const kit = await blocked();
    const before = kit.repository.lookups;
    const outcomes = [];
    for (let i = 200; i < 200 + 3 * BUDGET; i++) outcomes.push(await kit.check(secretNo(i, 'g'), 'c'));
    expect(kit.repository.lookups - before).toBe(BUDGET - 1); // one went to the guess in blocked()
    expect(outcomes).toEqual(outcomes.map(() => ({ ok: false, reason: 'throttled', retryAfterSeconds: 60 })));
  });

  it('accepts a valid key it has never seen while the budget lasts', async () => {
    const kit = await blocked();
    kit.repository.hold(secretNo(1, 'v'), factsOf({ keyId: 'valid-1' }));
    const accepted = await kit.check(secretNo(1, 'v'), 'c');
    expect(accepted).toMatchObject({ ok: true, keyId: 'valid-1' });
  });

  it('refuses a valid uncached key once the budget is spent, without a lookup', async () => {
    const kit = await blocked();
    for (let i = 0; i < BUDGET; i++) await kit.check(secretNo(300 + i, 'g'), 'c');
    kit.repository.hold(secretNo(2, 'v'), factsOf({ keyId: 'valid-2' }));
    const lookups = kit.repository.lookups;
    expect(await kit.check(secretNo(2, 'v'), 'c')).toEqual({ ok: false, reason: 'throttled', retryAfterSeconds: 60 });
    expect(kit.repository.lookups).toBe(lookups);
  });

  it('keeps accepting a cached valid key, past the budget, without a lookup', async () => {
    const kit = keyCheckKit({ failures: FAILURES, lookupsWhileBlocked: BUDGET });
    kit.repository.hold(secretNo(3, 'v'), factsOf({ keyId: 'valid-3' }));
    expect(await kit.check(secretNo(3, 'v'), 'c')).toMatchObject({ ok: true, keyId: 'valid-3' });
    for (let i = 0; i < FAILURES + 1 + BUDGET + 2; i++) await kit.check(secretNo(400 + i, 'g'), 'c');
    const lookups = kit.repository.lookups;
    for (let i = 0; i < 5; i++)
      expect(await kit.check(secretNo(3, 'v'), 'c')).toMatchObject({ ok: true, keyId: 'valid-3' });
    expect(kit.repository.lookups).toBe(lookups);
  });

  it('answers a cached unknown key and a malformed value as throttled, without a lookup', async () => {
    const kit = await blocked();
    const lookups = kit.repository.lookups;
    expect(await kit.check(secretNo(0, 'g'), 'c')).toEqual({ ok: false, reason: 'throttled', retryAfterSeconds: 60 });
    expect(await kit.check('ask_short', 'c')).toEqual({ ok: false, reason: 'throttled', retryAfterSeconds: 60 });
    expect(kit.repository.lookups).toBe(lookups);
  });

  it('refuses the guesses of a client it knows to be blocked at once, without a promise', async () => {
    const kit = await blocked();
    for (let i = 0; i < BUDGET; i++) await kit.check(secretNo(600 + i, 'g'), 'c');
    const lookups = kit.repository.lookups;
    const guess = kit.keyCheck.check(secretNo(700, 'g'), 'c');
    const malformed = kit.keyCheck.check('ask_short', 'c');
    expect(guess).not.toBeInstanceOf(Promise);
    expect(malformed).not.toBeInstanceOf(Promise);
    expect([guess, malformed]).toEqual([0, 1].map(() => ({ ok: false, reason: 'throttled', retryAfterSeconds: 60 })));
    expect(kit.repository.lookups).toBe(lookups);
    // Another client is still checked in full.
    expect(kit.keyCheck.check(secretNo(701, 'g'), 'other')).toBeInstanceOf(Promise);
  });

  it('re-reads a key it knew valid once its entry aged out, though the budget is spent', async () => {
    const kit = keyCheckKit({ failures: FAILURES, lookupsWhileBlocked: BUDGET, cacheMaxAgeMs: 0 });
    kit.repository.hold(secretNo(4, 'v'), factsOf({ keyId: 'valid-4' }));
    expect(await kit.check(secretNo(4, 'v'), 'c')).toMatchObject({ ok: true, keyId: 'valid-4' });
    for (let i = 0; i < FAILURES + 1 + BUDGET + 2; i++) await kit.check(secretNo(800 + i, 'g'), 'c');
    expect(kit.keyCheck.check(secretNo(801, 'g'), 'c')).toMatchObject({ reason: 'throttled' });
    const lookups = kit.repository.lookups;
    expect(await kit.check(secretNo(4, 'v'), 'c')).toMatchObject({ ok: true, keyId: 'valid-4' });
    expect(kit.repository.lookups).toBe(lookups + 1);
  });

  it('does not block another client', async () => {
    const kit = await blocked();
    expect(await kit.check(secretNo(500, 'g'), 'other')).toEqual({ ok: false, reason: 'api_key_invalid' });
  });
});
