import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { NotFoundError, PermissionDeniedError } from '../../../src/shared/errors.ts';
import { DAY_MS } from '../../../src/usage/usage-series.ts';
import { ENGINES } from '../../support/databases.ts';
import { actorIn, tenantWithUser } from '../../support/actors.ts';
import { check, usageRows } from './usage-kit.ts';

const START = '2026-11-22T12:00:00Z';

describe.each(ENGINES)('usage windows (%s)', (engine) => {
  const h = useHarness({ engine, now: START, rewindClock: true });

  it('puts requests one millisecond apart across midnight UTC into different hours and days', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'midnight' });
    h.clock.set('2026-11-22T23:59:59.999Z');
    await check(h, secret);
    h.clock.set('2026-11-23T00:00:00.000Z');
    await check(h, secret);
    await check(h, secret);
    await h.services.usage.counter.flush();

    h.clock.set('2026-11-23T00:30:00Z');
    const hours = await h.services.usage.reports.forKey(actor, api_key.id, '24h');
    expect(hours).toMatchObject({ window: '24h', bucket: 'hour', total: { ok: 3, rejected: 0 } });
    expect(hours.series).toHaveLength(24);
    expect(hours.series.slice(-2)).toEqual([
      { start: '2026-11-22T23:00:00.000Z', ok: 1, rejected: 0, rate_limited: 0, ip_refused: 0, quota_exceeded: 0 },
      { start: '2026-11-23T00:00:00.000Z', ok: 2, rejected: 0, rate_limited: 0, ip_refused: 0, quota_exceeded: 0 },
    ]);
    const days = await h.services.usage.reports.forKey(actor, api_key.id, '7d');
    expect(days).toMatchObject({ window: '7d', bucket: 'day' });
    expect(days.series.map((b) => [b.start.slice(0, 10), b.ok])).toEqual([
      ['2026-11-17', 0],
      ['2026-11-18', 0],
      ['2026-11-19', 0],
      ['2026-11-20', 0],
      ['2026-11-21', 0],
      ['2026-11-22', 1],
      ['2026-11-23', 2],
    ]);
    const tenant = await h.services.usage.reports.forTenant(actor, '30d');
    expect(tenant.series).toHaveLength(30);
    expect(tenant.series.at(-1)).toEqual({
      start: '2026-11-23T00:00:00.000Z',
      ok: 2,
      rejected: 0,
      rate_limited: 0,
      ip_refused: 0,
      quota_exceeded: 0,
    });
    expect(tenant.total).toEqual({ ok: 3, rejected: 0, rate_limited: 0, ip_refused: 0, quota_exceeded: 0 });
  });

  it('splits at the hour and drops an hour from 24h once it is 24 hours old', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'hour' });
    h.clock.set('2026-11-22T12:59:59.999Z');
    await check(h, secret);
    h.clock.set('2026-11-22T13:00:00.000Z');
    await check(h, secret);
    await h.services.usage.counter.flush();
    const now = await h.services.usage.reports.forKey(actor, api_key.id, '24h');
    expect(now.series.slice(-2).map((b) => [b.start, b.ok])).toEqual([
      ['2026-11-22T12:00:00.000Z', 1],
      ['2026-11-22T13:00:00.000Z', 1],
    ]);
    h.clock.set('2026-11-23T12:59:59.999Z');
    expect((await h.services.usage.reports.forKey(actor, api_key.id, '24h')).total.ok).toBe(1);
    expect((await h.services.usage.reports.forKey(actor, api_key.id, '7d')).total.ok).toBe(2);
  });

  it('lists at most ten top keys of the tenant, by ok', async () => {
    const { actor } = await tenantWithUser(h);
    const { actor: stranger } = await tenantWithUser(h);
    const now = h.clock.now().getTime();
    const keys = [];
    for (let i = 0; i < 12; i++) {
      const { api_key } = await h.services.keys.lifecycle.create(actor, { name: `key ${i}` });
      keys.push(api_key);
      for (let n = 0; n < i + 1; n++) h.services.usage.counter.ok(api_key.id, actor.tenantId, now);
    }
    h.services.usage.counter.rejected(keys[0]!.id, actor.tenantId, now);
    const foreign = await h.services.keys.lifecycle.create(stranger, { name: 'foreign' });
    for (let n = 0; n < 50; n++) h.services.usage.counter.ok(foreign.api_key.id, stranger.tenantId, now);
    await h.services.usage.counter.flush();
    const usage = await h.services.usage.reports.forTenant(actor, '24h');
    expect(usage.total).toEqual({ ok: 78, rejected: 1, rate_limited: 0, ip_refused: 0, quota_exceeded: 0 });
    expect(usage.top_keys).toHaveLength(10);
    expect(usage.top_keys[0]).toEqual({ id: keys[11]!.id, name: 'key 11', hint: keys[11]!.hint, ok: 12, rejected: 0 });
    expect(usage.top_keys.map((k) => k.ok)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
  });

  it('prunes buckets older than 90 days in the sweep, at most once an hour', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key } = await h.services.keys.lifecycle.create(actor, { name: 'old' });
    const now = h.clock.now().getTime();
    const count = (atMs: number) => h.services.usage.counter.ok(api_key.id, actor.tenantId, atMs);
    count(now - 90 * DAY_MS - 1);
    count(now - 90 * DAY_MS + 3_600_000);
    await h.services.usage.counter.flush();
    expect(await usageRows(h, 'key_usage', 'key_id', api_key.id)).toBe(2);
    await h.services.usage.reports.prune();
    expect(await usageRows(h, 'key_usage', 'key_id', api_key.id)).toBe(1);
    expect(await usageRows(h, 'tenant_usage', 'tenant_id', actor.tenantId)).toBe(1);
    count(now - 100 * DAY_MS);
    await h.services.usage.counter.flush();
    await h.services.usage.reports.prune();
    expect(await usageRows(h, 'key_usage', 'key_id', api_key.id)).toBe(2);
    h.clock.advance(3_600_000);
    await h.services.usage.reports.prune();
    expect(await usageRows(h, 'key_usage', 'key_id', api_key.id)).toBe(1);
  });

  it('answers not found for another tenant’s key or a malformed id, and refuses roles without api_keys:manage', async () => {
    const { actor } = await tenantWithUser(h);
    const { actor: stranger } = await tenantWithUser(h);
    const foreign = await h.services.keys.lifecycle.create(stranger, { name: 'foreign' });
    await expect(h.services.usage.reports.forKey(actor, foreign.api_key.id, '24h')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(h.services.usage.reports.forKey(actor, 'not-a-uuid', '24h')).rejects.toBeInstanceOf(NotFoundError);
    for (const role of ['administrator', 'operations', 'crew'] as const) {
      const other = await actorIn(h, actor.tenantId, [role]);
      await expect(h.services.usage.reports.forTenant(other, '24h')).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(h.services.usage.reports.forKey(other, foreign.api_key.id, '24h')).rejects.toBeInstanceOf(
        PermissionDeniedError,
      );
    }
  });
});
