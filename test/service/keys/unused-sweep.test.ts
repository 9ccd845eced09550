import { describe, expect, it } from 'vitest';
import type { UserActor } from '../../../src/shared/actor.ts';
import { auditActions, tenantWithUser } from '../../support/actors.ts';
import { DAY, eventsOf, recordEventsOf, unusedSweep } from '../../support/unused-sweep-kit.ts';
import { useHarness } from '../../support/use.ts';

const START = '2026-11-22T12:00:00Z';
const at = (days: number, ms = 0) => new Date(Date.parse(START) + days * DAY + ms);

/** `disable_unused_after_days`, under a clock the test moves (docs/keys.md (Key policy)). */
describe('the unused-key sweep', () => {
  const h = useHarness({ now: START, rewindClock: true });
  const sweep = () => unusedSweep(h.services, h.clock).run();
  const statusOf = async (actor: UserActor, id: string) =>
    (await h.services.keys.lifecycle.list(actor)).data.find((key) => key.id === id)!;
  const use = async (secret: string) => {
    expect(await h.services.keys.check.check(secret, '10.37.1.1')).toMatchObject({ ok: true });
    await h.services.keys.lastUse.flush();
  };

  async function tenantWithRule(days: number) {
    const { tenant, actor } = await tenantWithUser(h);
    await h.services.keys.policies.update(actor, tenant.id, { disable_unused_after_days: days });
    await recordEventsOf(h.services, tenant.id);
    return { tenant, actor };
  }

  it('disables exactly the keys idle for the threshold, since last use or creation, and no others', async () => {
    const { tenant, actor } = await tenantWithRule(30);
    const never = await h.services.keys.lifecycle.create(actor, { name: 'never used' });
    const used = await h.services.keys.lifecycle.create(actor, { name: 'used on day 10' });
    h.clock.set(at(5));
    const younger = await h.services.keys.lifecycle.create(actor, { name: 'created on day 5' });
    h.clock.set(at(10));
    await use(used.secret);
    const elsewhere = await tenantWithUser(h); // no policy: never swept
    const free = await h.services.keys.lifecycle.create(elsewhere.actor, { name: 'no policy' });

    h.clock.set(at(30, -1));
    expect(await sweep()).toMatchObject({ marked: 0, disabled: 0 });
    h.clock.set(at(30));
    expect(await sweep()).toMatchObject({ marked: 1, disabled: 1 });
    expect(await statusOf(actor, never.api_key.id)).toMatchObject({
      enabled: false,
      status: 'disabled',
      disabled_reason: 'unused',
    });
    for (const id of [used.api_key.id, younger.api_key.id]) expect((await statusOf(actor, id)).enabled).toBe(true);
    expect(await h.services.keys.check.check(never.secret, '10.37.1.2')).toEqual({
      ok: false,
      reason: 'api_key_disabled',
    });

    h.clock.set(at(100));
    expect(await sweep()).toMatchObject({ disabled: 2 });
    expect((await statusOf(elsewhere.actor, free.api_key.id)).enabled).toBe(true);
    const disabled = await eventsOf(h.services, tenant.id, 'api_key.disabled');
    expect(disabled.map((e) => e.data.api_key.id)).toEqual([
      never.api_key.id,
      ...[used.api_key.id, younger.api_key.id].filter((id) => disabled.some((e) => e.data.api_key.id === id)),
    ]);
    expect(disabled).toHaveLength(3);
    for (const event of disabled) expect(event.data).toMatchObject({ reason: 'unused', actor: { type: 'system' } });
    const audit = (await auditActions(h, tenant.id)).filter((e) => e.action === 'api_key.disabled');
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({
      actor: { type: 'system', id: null },
      target: { id: never.api_key.id },
      detail: { reason: 'unused', disable_unused_after_days: 30, unused_since: new Date(START).toISOString() },
    });
  });

  it('warns once, 7 days before, and again only after the key was used', async () => {
    const { tenant, actor } = await tenantWithRule(30);
    const key = await h.services.keys.lifecycle.create(actor, { name: 'quiet' });
    h.clock.set(at(23, -1));
    expect((await sweep()).warned).toBe(0);
    h.clock.set(at(23));
    expect((await sweep()).warned).toBe(1);
    h.clock.set(at(26));
    expect((await sweep()).warned).toBe(0);
    const [warning] = await eventsOf(h.services, tenant.id, 'api_key.unused');
    expect(warning!.data).toMatchObject({
      api_key: { id: key.api_key.id, enabled: true },
      actor: { type: 'system' },
      days_left: 7,
      disables_at: at(30).toISOString(),
      unused_since: new Date(START).toISOString(),
    });

    await use(key.secret); // day 26: idle again from here, disabled on day 56 at the earliest
    h.clock.set(at(30));
    expect(await sweep()).toMatchObject({ warned: 0, disabled: 0 });
    h.clock.set(at(49));
    expect((await sweep()).warned).toBe(1);
    expect(await eventsOf(h.services, tenant.id, 'api_key.unused')).toHaveLength(2);
  });

  it('lets a key disabled as unused be enabled again, and restarts its clock from then', async () => {
    const { tenant, actor } = await tenantWithRule(10);
    const key = await h.services.keys.lifecycle.create(actor, { name: 'seasonal' });
    h.clock.set(at(10));
    expect((await sweep()).disabled).toBe(1);
    h.clock.set(at(12));
    const enabled = await h.services.keys.lifecycle.setEnabled(actor, key.api_key.id, true);
    expect(enabled).toMatchObject({ enabled: true, status: 'enabled', disabled_reason: null });
    expect(await h.services.keys.check.check(key.secret, '10.37.1.3')).toMatchObject({ ok: true });

    h.clock.set(at(21));
    expect(await sweep()).toMatchObject({ marked: 0, disabled: 0 });
    expect((await statusOf(actor, key.api_key.id)).enabled).toBe(true);
    h.clock.set(at(22));
    expect((await sweep()).disabled).toBe(1);
    const actions = (await auditActions(h, tenant.id)).map((e) => `${e.action}:${e.actor.type}`);
    expect(actions.filter((a) => a.startsWith('api_key.'))).toEqual([
      'api_key.created:user',
      'api_key.disabled:system',
      'api_key.enabled:user',
      'api_key.disabled:system',
    ]);
  });

  it('leaves expired, retiring and already disabled keys, and keys of a relaxed policy, alone', async () => {
    const { tenant, actor } = await tenantWithRule(5);
    const expiring = await h.services.keys.lifecycle.create(actor, { name: 'expires', expires_at: '2026-11-25' });
    const rolled = await h.services.keys.lifecycle.create(actor, { name: 'rolled' });
    await h.services.keys.rolls.roll(actor, rolled.api_key.id, '7d');
    const off = await h.services.keys.lifecycle.create(actor, { name: 'off' });
    await h.services.keys.lifecycle.setEnabled(actor, off.api_key.id, false);
    h.clock.set(at(6));
    // Only the roll's successor is enabled, unexpired and not retiring.
    expect((await sweep()).disabled).toBe(1);
    expect((await statusOf(actor, expiring.api_key.id)).disabled_reason).toBeNull();
    expect((await statusOf(actor, off.api_key.id)).disabled_reason).toBe('disabled_by_user');

    const fresh = await h.services.keys.lifecycle.create(actor, { name: 'fresh' });
    await h.services.keys.policies.update(actor, tenant.id, { disable_unused_after_days: null });
    h.clock.set(at(60));
    await sweep(); // keys of the other tests' tenants may be swept; none of this one's
    expect((await statusOf(actor, fresh.api_key.id)).enabled).toBe(true);
    expect(await eventsOf(h.services, tenant.id, 'api_key.unused')).toHaveLength(0);
  });
});
