import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../../src/shared/errors.ts';
import { ENGINES } from '../../support/databases.ts';
import { START } from '../../support/manual-clock.ts';
import { auditActions, tenantWithUser } from '../../support/actors.ts';

async function rejects<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

describe.each(ENGINES)('key lifecycle (%s)', (engine) => {
  const h = useHarness({ engine, now: START, config: { maxKeysPerTenant: 3 }, rewindClock: true });

  it('creates an enabled key with a hint, its creator and an audit event, and returns the secret once', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, {
      name: '  Nightly export ',
      expires_at: '2026-12-01',
    });
    expect(secret).toMatch(/^ask_[A-Za-z0-9]{64}$/);
    expect(api_key).toMatchObject({
      name: 'Nightly export',
      hint: `ask_…${secret.slice(-4)}`,
      created_by: { id: actor.id, email: actor.email },
      expires_at: '2026-12-01',
      expires_at_time: '2026-12-01T00:00:00.000Z',
      enabled: true,
      status: 'enabled',
      disabled_reason: null,
      last_used_at: null,
      created_at: new Date(START).toISOString(),
    });
    const listed = await h.services.keys.lifecycle.list(actor);
    expect(listed.authority).toBe('creator');
    expect(listed.data).toEqual([api_key]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(4));
    const events = await auditActions(h, tenant.id);
    expect(events.map((e) => e.action)).toEqual(['user.created', 'api_key.created']);
    expect(events[1]).toMatchObject({
      actor: { type: 'user', id: actor.id },
      target: { id: api_key.id, name: 'Nightly export' },
      detail: { hint: api_key.hint, expires_at: '2026-12-01' },
    });
  });

  it('lists keys newest first', async () => {
    const { actor } = await tenantWithUser(h);
    const first = await h.services.keys.lifecycle.create(actor, { name: 'first' });
    h.clock.advance(1000);
    const second = await h.services.keys.lifecycle.create(actor, { name: 'second' });
    expect((await h.services.keys.lifecycle.list(actor)).data.map((k) => k.id)).toEqual([
      second.api_key.id,
      first.api_key.id,
    ]);
  });

  it('refuses an invalid name or expiry date with 400s on the field', async () => {
    const { actor } = await tenantWithUser(h);
    expect(
      (await rejects(h.services.keys.lifecycle.create(actor, { name: ' ' }), InvalidRequestError)).errors[0]!.path,
    ).toBe('name');
    expect(
      (
        await rejects(
          h.services.keys.lifecycle.create(actor, { name: 'k', expires_at: '2026-11-22' }),
          InvalidRequestError,
        )
      ).errors[0]!.path,
    ).toBe('expires_at');
    expect(
      (
        await rejects(
          h.services.keys.lifecycle.create(actor, { name: 'k', expires_at: '2026-02-30' }),
          InvalidRequestError,
        )
      ).errors[0]!.path,
    ).toBe('expires_at');
    expect((await h.services.keys.lifecycle.list(actor)).data).toEqual([]);
  });

  it('disables and enables a key, idempotently, auditing each real transition once', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const { api_key } = await h.services.keys.lifecycle.create(actor, { name: 'toggle' });
    const disabled = await h.services.keys.lifecycle.setEnabled(actor, api_key.id, false);
    expect(disabled).toMatchObject({ enabled: false, status: 'disabled', disabled_reason: 'disabled_by_user' });
    expect(await h.services.keys.lifecycle.setEnabled(actor, api_key.id, false)).toMatchObject({
      enabled: false,
      status: 'disabled',
    });
    const enabled = await h.services.keys.lifecycle.setEnabled(actor, api_key.id, true);
    expect(enabled).toMatchObject({ enabled: true, status: 'enabled', disabled_reason: null });
    await h.services.keys.lifecycle.setEnabled(actor, api_key.id, true);
    const actions = (await auditActions(h, tenant.id)).filter((e) => e.target.id === api_key.id).map((e) => e.action);
    expect(actions).toEqual(['api_key.created', 'api_key.disabled', 'api_key.enabled']);
  });

  it('refuses to enable or disable an expired key with 409 api_key_expired, whatever enabled says', async () => {
    const { actor } = await tenantWithUser(h);
    const enabled = await h.services.keys.lifecycle.create(actor, { name: 'expires', expires_at: '2026-11-23' });
    const disabled = await h.services.keys.lifecycle.create(actor, { name: 'expires too', expires_at: '2026-11-23' });
    await h.services.keys.lifecycle.setEnabled(actor, disabled.api_key.id, false);
    h.clock.set('2026-11-22T23:59:59.999Z');
    expect(await h.services.keys.lifecycle.setEnabled(actor, enabled.api_key.id, true)).toMatchObject({
      status: 'enabled',
    });
    h.clock.set('2026-11-23T00:00:00.000Z');
    for (const key of [enabled, disabled]) {
      for (const want of [true, false]) {
        expect(
          (await rejects(h.services.keys.lifecycle.setEnabled(actor, key.api_key.id, want), ConflictError)).code,
        ).toBe('api_key_expired');
      }
    }
    const listed = (await h.services.keys.lifecycle.list(actor)).data;
    expect(
      listed.map((k) => [k.name, k.status, k.enabled]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['expires', 'expired', true],
      ['expires too', 'expired', false],
    ]);
  });

  it('deletes a key: the row is gone, the trail keeps id, name and hint, and it cannot be deleted twice', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const { api_key } = await h.services.keys.lifecycle.create(actor, { name: 'doomed' });
    await h.services.keys.lifecycle.delete(actor, api_key.id);
    expect((await h.services.keys.lifecycle.list(actor)).data).toEqual([]);
    const deleted = (await auditActions(h, tenant.id)).find((e) => e.action === 'api_key.deleted');
    expect(deleted).toMatchObject({ target: { id: api_key.id, name: 'doomed' }, detail: { hint: api_key.hint } });
    await rejects(h.services.keys.lifecycle.delete(actor, api_key.id), NotFoundError);
    await rejects(h.services.keys.lifecycle.setEnabled(actor, api_key.id, false), NotFoundError);
  });

  it("treats another tenant's key as not found", async () => {
    const a = await tenantWithUser(h);
    const b = await tenantWithUser(h);
    const { api_key } = await h.services.keys.lifecycle.create(b.actor, { name: "b's" });
    await rejects(h.services.keys.lifecycle.setEnabled(a.actor, api_key.id, false), NotFoundError);
    await rejects(h.services.keys.lifecycle.delete(a.actor, api_key.id), NotFoundError);
    expect((await h.services.keys.lifecycle.list(b.actor)).data[0]).toMatchObject({ id: api_key.id, enabled: true });
  });

  it('refuses the key after MAX_KEYS_PER_TENANT with 409 api_key_limit_reached, per tenant', async () => {
    const { actor } = await tenantWithUser(h);
    const made = [];
    for (let i = 0; i < h.config.maxKeysPerTenant; i++)
      made.push(await h.services.keys.lifecycle.create(actor, { name: `k${i}` }));
    expect((await rejects(h.services.keys.lifecycle.create(actor, { name: 'one too many' }), ConflictError)).code).toBe(
      'api_key_limit_reached',
    );
    const other = await tenantWithUser(h);
    await h.services.keys.lifecycle.create(other.actor, { name: 'other tenant is unaffected' });
    await h.services.keys.lifecycle.delete(actor, made[0]!.api_key.id);
    await h.services.keys.lifecycle.create(actor, { name: 'room again' });
  });

  it('holds the limit under concurrent creates', async () => {
    const { actor } = await tenantWithUser(h);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => h.services.keys.lifecycle.create(actor, { name: `race ${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(h.config.maxKeysPerTenant);
    expect((await h.services.keys.lifecycle.list(actor)).data).toHaveLength(h.config.maxKeysPerTenant);
  });
});
