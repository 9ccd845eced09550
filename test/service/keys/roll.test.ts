import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import type { RollOverlap } from '../../../src/keys/key-schemas.ts';
import { ConflictError, NotFoundError, PermissionDeniedError } from '../../../src/shared/errors.ts';
import { ENGINES } from '../../support/databases.ts';
import { actorIn, auditActions, tenantWithUser } from '../../support/actors.ts';

const START = '2026-11-22T12:00:00Z';
const HOUR = 3_600_000;
const OVERLAPS: Array<[Exclude<RollOverlap, 'none'>, number]> = [
  ['1h', HOUR],
  ['24h', 24 * HOUR],
  ['7d', 7 * 24 * HOUR],
];

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe.each(ENGINES)('rolling a key (%s)', (engine) => {
  const h = useHarness({ engine, now: START, config: { maxKeysPerTenant: 2 }, rewindClock: true });
  const check = (secret: string) => h.services.keys.check.check(secret, '10.6.0.1');

  it.each(OVERLAPS)(
    'with overlap %s keeps the old key until 1 ms before retires_at and refuses it from that instant',
    async (overlap, ms) => {
      const { tenant, actor: creator } = await tenantWithUser(h);
      const roller = await actorIn(h, tenant.id, ['system_administrator']);
      const old = await h.services.keys.lifecycle.create(creator, { name: 'Nightly export', expires_at: '2027-01-01' });
      expect(await check(old.secret)).toMatchObject({ ok: true }); // cached before the roll
      h.clock.advance(5000);
      const rolledAt = h.clock.now().getTime();
      const rolled = await h.services.keys.rolls.roll(roller, old.api_key.id, overlap);
      const retiresAt = new Date(rolledAt + ms).toISOString();
      expect(rolled.api_key).toMatchObject({
        name: 'Nightly export',
        expires_at: '2027-01-01',
        enabled: true,
        status: 'enabled',
        created_by: { id: roller.id, email: roller.email },
        retires_at: null,
        hint: `ask_…${rolled.secret.slice(-4)}`,
      });
      expect(rolled.secret).toMatch(/^ask_[A-Za-z0-9]{64}$/);
      expect(rolled.previous).toMatchObject({
        id: old.api_key.id,
        retires_at: retiresAt,
        status: 'enabled',
        enabled: true,
      });
      expect(await check(rolled.secret)).toMatchObject({ ok: true, keyId: rolled.api_key.id });
      h.clock.set(new Date(rolledAt + ms - 1));
      expect(await check(old.secret)).toMatchObject({ ok: true, keyId: old.api_key.id });
      h.clock.set(retiresAt);
      expect(await check(old.secret)).toEqual({ ok: false, reason: 'api_key_invalid' });
      expect(await check(rolled.secret)).toMatchObject({ ok: true });
      const rolledEvent = (await auditActions(h, tenant.id)).find((e) => e.action === 'api_key.rolled');
      expect(rolledEvent).toMatchObject({
        actor: { type: 'user', id: roller.id },
        target: { id: old.api_key.id, name: 'Nightly export' },
        detail: {
          hint: old.api_key.hint,
          new_key_id: rolled.api_key.id,
          new_hint: rolled.api_key.hint,
          overlap,
          retires_at: retiresAt,
        },
      });
    },
  );

  it('with overlap none refuses the old key at once and deletes it in the same transaction', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const old = await h.services.keys.lifecycle.create(actor, { name: 'now' });
    expect(await check(old.secret)).toMatchObject({ ok: true });
    const rolled = await h.services.keys.rolls.roll(actor, old.api_key.id, 'none');
    expect(rolled.previous).toBeNull();
    expect(await check(old.secret)).toEqual({ ok: false, reason: 'api_key_invalid' });
    expect((await h.services.keys.lifecycle.list(actor)).data.map((k) => k.id)).toEqual([rolled.api_key.id]);
    const events = (await auditActions(h, tenant.id))
      .filter((e) => e.target.id === old.api_key.id)
      .map((e) => e.action);
    expect(events).toEqual(['api_key.created', 'api_key.rolled', 'api_key.deleted']);
  });

  it('deletes a retired key on the sweep, audited as the system, and nothing before its retires_at', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const old = await h.services.keys.lifecycle.create(actor, { name: 'swept' });
    await h.services.keys.rolls.roll(actor, old.api_key.id, '1h');
    h.clock.advance(HOUR - 1);
    await h.services.keys.rolls.deleteRetired();
    expect((await h.services.keys.lifecycle.list(actor)).data).toHaveLength(2);
    h.clock.advance(1);
    expect(await h.services.keys.rolls.deleteRetired()).toBeGreaterThanOrEqual(1);
    expect((await h.services.keys.lifecycle.list(actor)).data.map((k) => k.id)).not.toContain(old.api_key.id);
    const deleted = (await auditActions(h, tenant.id)).find(
      (e) => e.action === 'api_key.deleted' && e.target.id === old.api_key.id,
    );
    expect(deleted).toMatchObject({ actor: { type: 'system', id: null }, detail: { hint: old.api_key.hint } });
  });

  it('refuses to roll an expired key with 409 api_key_expired', async () => {
    const { actor } = await tenantWithUser(h);
    const old = await h.services.keys.lifecycle.create(actor, { name: 'expiring', expires_at: '2026-11-23' });
    h.clock.set('2026-11-23T00:00:00Z');
    const error = await rejection(h.services.keys.rolls.roll(actor, old.api_key.id, '1h'));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('api_key_expired');
    expect((await h.services.keys.lifecycle.list(actor)).data).toHaveLength(1);
  });

  it('rolls a leaked or disabled key into an enabled one; the old one stays refused', async () => {
    const { actor } = await tenantWithUser(h);
    const leaked = await h.services.keys.lifecycle.create(actor, { name: 'leaked' });
    await h.services.keys.leaks.report({ keys: [leaked.secret] }, { address: '10.6.9.1', userAgent: undefined });
    const rolled = await h.services.keys.rolls.roll(actor, leaked.api_key.id, '24h');
    expect(rolled.api_key).toMatchObject({ enabled: true, status: 'enabled', disabled_reason: null });
    expect(rolled.previous).toMatchObject({ enabled: false, status: 'disabled', disabled_reason: 'leaked' });
    expect(await check(leaked.secret)).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect(await check(rolled.secret)).toMatchObject({ ok: true });
  });

  it('does not count a roll against MAX_KEYS_PER_TENANT: a full tenant can still roll', async () => {
    const { actor } = await tenantWithUser(h);
    const first = await h.services.keys.lifecycle.create(actor, { name: 'one' });
    await h.services.keys.lifecycle.create(actor, { name: 'two' });
    const rolled = await h.services.keys.rolls.roll(actor, first.api_key.id, '1h');
    expect((await h.services.keys.lifecycle.list(actor)).data).toHaveLength(3);
    expect(((await rejection(h.services.keys.lifecycle.create(actor, { name: 'three' }))) as ConflictError).code).toBe(
      'api_key_limit_reached',
    );
    expect(rolled.api_key.name).toBe('one');
  });

  it('lets only a System Administrator roll, and treats another tenant’s key as not found', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const key = await h.services.keys.lifecycle.create(actor, { name: 'guarded' });
    for (const role of ['administrator', 'operations', 'crew'] as const) {
      const other = await actorIn(h, tenant.id, [role]);
      expect(await rejection(h.services.keys.rolls.roll(other, key.api_key.id, 'none'))).toBeInstanceOf(
        PermissionDeniedError,
      );
    }
    const stranger = await tenantWithUser(h);
    expect(await rejection(h.services.keys.rolls.roll(stranger.actor, key.api_key.id, 'none'))).toBeInstanceOf(
      NotFoundError,
    );
    expect((await h.services.keys.lifecycle.list(actor)).data).toMatchObject([
      { id: key.api_key.id, retires_at: null },
    ]);
    expect(await check(key.secret)).toMatchObject({ ok: true });
  });

  it('treats a key past its retires_at as not found, and never extends a retirement by rolling again', async () => {
    const { actor } = await tenantWithUser(h);
    const key = await h.services.keys.lifecycle.create(actor, { name: 'twice' });
    const first = await h.services.keys.rolls.roll(actor, key.api_key.id, '1h');
    const second = await h.services.keys.rolls.roll(actor, key.api_key.id, '7d');
    expect(second.previous!.retires_at).toBe(first.previous!.retires_at);
    h.clock.set(first.previous!.retires_at!);
    expect(await rejection(h.services.keys.rolls.roll(actor, key.api_key.id, '1h'))).toBeInstanceOf(NotFoundError);
  });
});
