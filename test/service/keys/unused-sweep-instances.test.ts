import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { auditActions, tenantWithUser } from '../../support/actors.ts';
import { ManualClock } from '../../support/manual-clock.ts';
import { DAY, eventsOf, recordEventsOf, unusedSweep } from '../../support/unused-sweep-kit.ts';
import { useHarness } from '../../support/use.ts';

const START = '2026-11-22T12:00:00Z';
const FLUSH_MS = 200;
const DAY_31 = new Date(Date.parse(START) + 31 * DAY);

/**
 * Two instances on one PostgreSQL. Last use reaches the database through each instance's
 * write-behind, so A's sweep must not disable a key B accepted a moment ago and has not written yet.
 */
describe('the unused-key sweep with two instances (postgres)', () => {
  const a = useHarness({ engine: 'postgres', now: START, config: { usageFlushMs: FLUSH_MS } });
  const bClock = new ManualClock(START);
  let b: ServiceRoot;
  // B's write-behind never runs by itself here: B writes what it saw during the sweep's grace, as
  // it would within its flush interval, so the race is the same on a slow machine as on a fast one.
  const sweepOn = (services: ServiceRoot, clock: ManualClock) =>
    unusedSweep(
      services,
      clock,
      async (ms) => {
        await b.keys.lastUse.flush();
        clock.advance(ms);
      },
      FLUSH_MS,
    );

  beforeAll(async () => {
    b = await createServices({ ...a.config, usageFlushMs: 3_600_000 }, { clock: bClock });
    await b.start();
  });
  afterAll(async () => b?.close());

  async function idleKeys(names: string[]) {
    a.clock.set(START);
    const { tenant, actor } = await tenantWithUser(a);
    await a.services.keys.policies.update(actor, tenant.id, { disable_unused_after_days: 30 });
    await recordEventsOf(a.services, tenant.id);
    const keys = [];
    for (const name of names) keys.push(await a.services.keys.lifecycle.create(actor, { name }));
    a.clock.set(DAY_31);
    bClock.set(DAY_31);
    return { tenant, actor, keys };
  }

  it('does not disable a key used on instance B just before instance A sweeps', async () => {
    const { actor, keys } = await idleKeys(['used on B', 'idle']);
    const [usedOnB, idle] = keys as [(typeof keys)[0], (typeof keys)[0]];
    expect(await b.keys.check.check(usedOnB.secret, '10.37.2.1')).toMatchObject({ ok: true });
    // Not written yet: the database still says the key was never used.
    const stored = (await a.services.keys.lifecycle.list(actor)).data.find((k) => k.id === usedOnB.api_key.id)!;
    expect(stored.last_used_at).toBeNull();

    const result = await sweepOn(a.services, a.clock).run();
    expect(result.marked).toBeGreaterThanOrEqual(2);
    const listed = (await a.services.keys.lifecycle.list(actor)).data;
    expect(listed.find((k) => k.id === usedOnB.api_key.id)).toMatchObject({
      enabled: true,
      last_used_at: DAY_31.toISOString(),
    });
    expect(listed.find((k) => k.id === idle.api_key.id)).toMatchObject({ enabled: false, disabled_reason: 'unused' });
    expect(await b.keys.check.check(usedOnB.secret, '10.37.2.1')).toMatchObject({ ok: true });
  });

  it('refuses the disabled key on B at once, which had it cached', async () => {
    const { keys } = await idleKeys(['cached on B']);
    const [key] = keys as [(typeof keys)[0]];
    // B caches the key, then the use is written; the key is idle for 30 days by then.
    bClock.set(new Date(Date.parse(START) + DAY));
    expect(await b.keys.check.check(key.secret, '10.37.2.2')).toMatchObject({ ok: true });
    await b.keys.lastUse.flush();
    a.clock.set(new Date(Date.parse(START) + 31 * DAY + 1));
    bClock.set(a.clock.now());
    expect((await sweepOn(a.services, a.clock).run()).disabled).toBeGreaterThanOrEqual(1);
    expect(await b.keys.check.check(key.secret, '10.37.2.2')).toEqual({ ok: false, reason: 'api_key_disabled' });
  });

  it('disables and announces each key once when both instances sweep at the same moment', async () => {
    const { tenant, keys } = await idleKeys(['one', 'two', 'three']);
    // Warned first (day 23), then both sweep together past the threshold.
    a.clock.set(new Date(Date.parse(START) + 23 * DAY));
    bClock.set(a.clock.now());
    await Promise.all([sweepOn(a.services, a.clock).run(), sweepOn(b, bClock).run()]);
    a.clock.set(DAY_31);
    bClock.set(DAY_31);
    await Promise.all([sweepOn(a.services, a.clock).run(), sweepOn(b, bClock).run()]);
    const ids = keys.map((k) => k.api_key.id).sort();
    expect((await eventsOf(a.services, tenant.id, 'api_key.unused')).map((e) => e.data.api_key.id).sort()).toEqual(ids);
    expect((await eventsOf(a.services, tenant.id, 'api_key.disabled')).map((e) => e.data.api_key.id).sort()).toEqual(
      ids,
    );
    const audited = (await auditActions(a, tenant.id)).filter((e) => e.action === 'api_key.disabled');
    expect(audited.map((e) => e.target.id).sort()).toEqual(ids);
  });
});
