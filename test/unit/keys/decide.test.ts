import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/keys/check/decide.ts';
import { factsOf } from '../../support/facts.ts';

const NOW = Date.UTC(2026, 10, 22, 12);

describe('decide: the verdict for one request', () => {
  it('rejects an unknown or deleted key as invalid', () => {
    expect(decide(null, NOW)).toEqual({ ok: false, reason: 'api_key_invalid' });
  });

  it('accepts an enabled, unexpired key of a present creator, with its principal', () => {
    const facts = factsOf();
    expect(decide(facts, NOW)).toEqual({
      ok: true,
      status: 'admitted',
      credential: 'key',
      principal: facts.principal,
      keyId: 'key-1',
    });
  });

  it('accepts a key whose expiry is still ahead by one millisecond', () => {
    expect(decide(factsOf({ expiresAtMs: NOW + 1 }), NOW).ok).toBe(true);
  });

  it('rejects an expired key as expired exactly at its expiry instant', () => {
    expect(decide(factsOf({ expiresAtMs: NOW }), NOW)).toEqual({ ok: false, reason: 'api_key_expired' });
    expect(decide(factsOf({ expiresAtMs: NOW - 86_400_000 }), NOW)).toEqual({ ok: false, reason: 'api_key_expired' });
  });

  it('reports expired whatever enabled says', () => {
    expect(decide(factsOf({ expiresAtMs: NOW - 1, enabled: false }), NOW)).toEqual({
      ok: false,
      reason: 'api_key_expired',
    });
    expect(decide(factsOf({ expiresAtMs: NOW - 1, enabled: true }), NOW)).toEqual({
      ok: false,
      reason: 'api_key_expired',
    });
  });

  it('rejects a disabled key as disabled', () => {
    expect(decide(factsOf({ enabled: false }), NOW)).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect(decide(factsOf({ enabled: false, authority: 'system' }), NOW)).toEqual({
      ok: false,
      reason: 'api_key_disabled',
    });
  });

  it('rejects, under creator authority, a key whose creator is gone even if the row still says enabled', () => {
    expect(decide(factsOf({ creatorId: null, authority: 'creator' }), NOW)).toEqual({
      ok: false,
      reason: 'api_key_disabled',
    });
  });

  it('accepts, under system authority, a key whose creator is gone', () => {
    const facts = factsOf({ creatorId: null, authority: 'system' });
    expect(decide(facts, NOW)).toEqual({
      ok: true,
      status: 'admitted',
      credential: 'key',
      principal: facts.principal,
      keyId: 'key-1',
    });
    expect(facts.principal.acts_as).toEqual({ type: 'system' });
  });

  it('decides per request from the same facts as the clock moves', () => {
    const facts = factsOf({ expiresAtMs: NOW });
    expect(decide(facts, NOW - 1).ok).toBe(true);
    expect(decide(facts, NOW).ok).toBe(false);
  });

  it('accepts a retiring key until one millisecond before its retires_at, and refuses it as invalid from that instant', () => {
    const facts = factsOf({ retiresAtMs: NOW });
    expect(decide(facts, NOW - 1)).toEqual({
      ok: true,
      status: 'admitted',
      credential: 'key',
      principal: facts.principal,
      keyId: 'key-1',
    });
    expect(decide(facts, NOW)).toEqual({ ok: false, reason: 'api_key_invalid' });
    expect(decide(facts, NOW + 86_400_000)).toEqual({ ok: false, reason: 'api_key_invalid' });
  });

  it('refuses a retired key as invalid even when it is also disabled or expired, like a deleted one', () => {
    expect(decide(factsOf({ retiresAtMs: NOW, enabled: false }), NOW)).toEqual({
      ok: false,
      reason: 'api_key_invalid',
    });
    expect(decide(factsOf({ retiresAtMs: NOW, expiresAtMs: NOW - 1 }), NOW)).toEqual({
      ok: false,
      reason: 'api_key_invalid',
    });
  });

  it('still reports a retiring disabled key as disabled before its retires_at', () => {
    expect(decide(factsOf({ retiresAtMs: NOW + 1, enabled: false }), NOW)).toEqual({
      ok: false,
      reason: 'api_key_disabled',
    });
  });
});
