import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { PermissionDeniedError } from '../../../src/shared/errors.ts';
import { UsageCounter } from '../../../src/usage/usage-counter.ts';
import { UsageRepository } from '../../../src/usage/usage-repository.ts';
import { ENGINES } from '../../support/databases.ts';
import { actorIn, tenantWithUser } from '../../support/actors.ts';
import { useHarness } from '../../support/use.ts';
import { check, keyTotal, tenantTotal, usageRows } from './usage-kit.ts';
import { collectInto, FAIL_ON_ERROR } from '../../support/run-reports.ts';

const START = '2026-11-22T12:00:00Z';

describe.each(ENGINES)('usage counting (%s)', (engine) => {
  const h = useHarness({ engine, now: START, rewindClock: true });
  let second: ServiceRoot | undefined;
  afterAll(async () => second?.close());

  it('adds up the counts of two instances exactly, flushed one after the other and at once', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'two instances' });
    // PostgreSQL: a second instance on the same database. PGlite (one process): a second counter on it.
    const otherCounter =
      engine === 'postgres'
        ? (second = await createServices(h.config, { clock: h.clock })).usage.counter
        : new UsageCounter(new UsageRepository(h.services.database.db), 60_000, FAIL_ON_ERROR);
    const otherCount = async () =>
      second
        ? expect((await second.keys.check.check(secret, 'other')).ok).toBe(true)
        : otherCounter.ok(api_key.id, actor.tenantId, h.clock.now().getTime());
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 40; i++) await check(h, secret);
      for (let i = 0; i < 25; i++) await otherCount();
      if (round === 0) {
        await h.services.usage.counter.flush();
        await otherCounter.flush();
      } else {
        await Promise.all([h.services.usage.counter.flush(), otherCounter.flush()]);
      }
    }
    expect(await keyTotal(h, actor, api_key.id)).toEqual({ ok: 195, rejected: 0 });
    expect(await tenantTotal(h, actor)).toEqual({ ok: 195, rejected: 0 });
  });

  it('keeps flushed counts and drops only the unflushed ones of a counter that is never stopped', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key } = await h.services.keys.lifecycle.create(actor, { name: 'crash' });
    const crashing = new UsageCounter(new UsageRepository(h.services.database.db), 60_000, FAIL_ON_ERROR);
    const now = h.clock.now().getTime();
    for (let i = 0; i < 7; i++) crashing.ok(api_key.id, actor.tenantId, now);
    crashing.rejected(api_key.id, actor.tenantId, now);
    await crashing.flush();
    for (let i = 0; i < 5; i++) crashing.ok(api_key.id, actor.tenantId, now);
    // The process dies: no stop(), no flush. Only the last interval is missing.
    expect(await keyTotal(h, actor, api_key.id)).toEqual({ ok: 7, rejected: 1 });
    expect(await tenantTotal(h, actor)).toEqual({ ok: 7, rejected: 1 });
  });

  it('keeps the counts of a failed flush and adds them once when the database is back', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key } = await h.services.keys.lifecycle.create(actor, { name: 'outage' });
    const repository = new UsageRepository(h.services.database.db);
    let down = true;
    const errors: unknown[] = [];
    const counter = new UsageCounter(
      { add: async (batch) => (down ? Promise.reject(new Error('connection refused')) : repository.add(batch)) },
      60_000,
      collectInto(errors),
    );
    const now = h.clock.now().getTime();
    for (let i = 0; i < 4; i++) counter.ok(api_key.id, actor.tenantId, now);
    await counter.flush();
    expect(errors).toHaveLength(1);
    expect(await keyTotal(h, actor, api_key.id)).toEqual({ ok: 0, rejected: 0 });
    counter.rejected(api_key.id, actor.tenantId, now);
    down = false;
    await counter.flush();
    await counter.flush();
    expect(await keyTotal(h, actor, api_key.id)).toEqual({ ok: 4, rejected: 1 });
  });

  it('deletes a deleted key’s usage, keeps it in the tenant total, and still flushes counts taken before the delete', async () => {
    const { actor } = await tenantWithUser(h);
    const kept = await h.services.keys.lifecycle.create(actor, { name: 'kept' });
    const gone = await h.services.keys.lifecycle.create(actor, { name: 'gone' });
    for (let i = 0; i < 3; i++) await check(h, gone.secret);
    await h.services.usage.counter.flush();
    await check(h, gone.secret);
    await check(h, kept.secret);
    await h.services.keys.lifecycle.delete(actor, gone.api_key.id);
    // Counted before the delete, flushed after it: the flush must not fail on the foreign key.
    await h.services.usage.counter.flush();
    expect(await usageRows(h, 'key_usage', 'key_id', gone.api_key.id)).toBe(0);
    expect(await keyTotal(h, actor, kept.api_key.id)).toEqual({ ok: 1, rejected: 0 });
    expect(await tenantTotal(h, actor)).toEqual({ ok: 5, rejected: 0 });
    expect((await h.services.usage.reports.forTenant(actor, '24h')).top_keys.map((k) => k.id)).toEqual([
      kept.api_key.id,
    ]);
  });

  it('counts refusals of a known key as rejected: disabled, expired, permission denied', async () => {
    const { actor } = await tenantWithUser(h);
    const disabled = await h.services.keys.lifecycle.create(actor, { name: 'disabled' });
    await check(h, disabled.secret);
    await h.services.keys.lifecycle.setEnabled(actor, disabled.api_key.id, false);
    await check(h, disabled.secret, false);
    await check(h, disabled.secret, false);

    const expiring = await h.services.keys.lifecycle.create(actor, { name: 'expiring', expires_at: '2026-11-23' });
    h.clock.set('2026-11-22T23:59:59.999Z');
    await check(h, expiring.secret);
    h.clock.set('2026-11-23T00:00:00.000Z');
    await check(h, expiring.secret, false);

    // A key whose creator is now crew passes the key check but may not read flights.
    const creator = await actorIn(h, actor.tenantId, ['system_administrator']);
    const crewKey = await h.services.keys.lifecycle.create(creator, { name: 'crew key' });
    await h.services.accounts.users.update(actor, actor.tenantId, creator.id, { roles: ['crew'] });
    const verdict = await h.services.keys.check.check(crewKey.secret, 'usage-test');
    if (!verdict.ok) throw new Error(`crew key refused: ${verdict.reason}`);
    await expect(h.services.flights.get(verdict.principal, randomUUID())).rejects.toBeInstanceOf(PermissionDeniedError);

    await h.services.usage.counter.flush();
    expect(await keyTotal(h, actor, disabled.api_key.id)).toEqual({ ok: 1, rejected: 2 });
    expect(await keyTotal(h, actor, expiring.api_key.id, '7d')).toEqual({ ok: 1, rejected: 1 });
    expect(await keyTotal(h, actor, crewKey.api_key.id)).toEqual({ ok: 0, rejected: 1 });
  });

  it('counts nothing for unknown or malformed keys', async () => {
    const { actor } = await tenantWithUser(h);
    const { secret } = await h.services.keys.lifecycle.create(actor, { name: 'real' });
    const unknown = `ask_${'x'.repeat(secret.length - 4)}`;
    await check(h, unknown, false);
    await check(h, 'not-a-key', false);
    await check(h, `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`, false);
    await h.services.usage.counter.flush();
    expect(await tenantTotal(h, actor)).toEqual({ ok: 0, rejected: 0 });
    expect(await usageRows(h, 'tenant_usage', 'tenant_id', actor.tenantId)).toBe(0);
  });
});
