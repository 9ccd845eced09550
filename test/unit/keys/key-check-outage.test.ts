import { describe, expect, it } from 'vitest';
import { factsOf } from '../../support/facts.ts';
import { keyCheckKit, secretNo } from '../../support/key-check-kit.ts';

/**
 * KeyCheck when the database cannot be read: while the instance's lease holds, what it has seen
 * still holds (every change was heard); once the lease lapses nothing is vouched for; nothing is
 * ever guessed.
 */
describe('KeyCheck: the repository fails', () => {
  it('answers from the facts last seen while its lease holds, and refuses to vouch once it lapses', async () => {
    const kit = keyCheckKit();
    kit.repository.hold(secretNo(1, 'v'), factsOf({ keyId: 'seen' }));
    expect(await kit.check(secretNo(1, 'v'), 'c')).toMatchObject({ ok: true, keyId: 'seen' });
    kit.repository.down = true;
    const lookups = kit.repository.lookups;
    expect(await kit.check(secretNo(1, 'v'), 'c')).toMatchObject({ ok: true, keyId: 'seen' });
    expect(kit.repository.lookups).toBe(lookups); // answered from memory, within the lease
    kit.cache.serveUntil(performance.now() - 1); // the lease lapsed
    await expect(kit.check(secretNo(1, 'v'), 'c')).rejects.toThrow('connection terminated');
    expect(kit.repository.lookups).toBe(lookups + 1); // it did try the database first
  });

  it('keeps a key last seen disabled refused as disabled, and one last seen unknown as invalid', async () => {
    const kit = keyCheckKit();
    kit.repository.hold(secretNo(2, 'v'), factsOf({ keyId: 'off', enabled: false }));
    expect(await kit.check(secretNo(2, 'v'), 'c')).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect(await kit.check(secretNo(3, 'u'), 'c')).toEqual({ ok: false, reason: 'api_key_invalid' });
    kit.repository.down = true;
    expect(await kit.check(secretNo(2, 'v'), 'c')).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect(await kit.check(secretNo(3, 'u'), 'c')).toEqual({ ok: false, reason: 'api_key_invalid' });
  });

  it('lets the error propagate for a key never seen, never answering "invalid"', async () => {
    const kit = keyCheckKit();
    kit.repository.hold(secretNo(4, 'v'), factsOf({ keyId: 'never-read' }));
    kit.repository.down = true;
    await expect(kit.check(secretNo(4, 'v'), 'c')).rejects.toThrow('connection terminated');
    await expect(kit.check(secretNo(5, 'u'), 'c')).rejects.toThrow('connection terminated');
  });

  it('does not count an outage as a failure of the client', async () => {
    const kit = keyCheckKit({ failures: 1, lookupsWhileBlocked: 1 });
    kit.repository.down = true;
    for (let i = 0; i < 5; i++) await expect(kit.check(secretNo(i, 'u'), 'c')).rejects.toThrow('connection terminated');
    kit.repository.down = false;
    expect(await kit.check(secretNo(9, 'u'), 'c')).toEqual({ ok: false, reason: 'api_key_invalid' });
  });
});
