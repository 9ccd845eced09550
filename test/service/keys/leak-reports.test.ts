import { describe, expect, it } from 'vitest';
import { containing, useHarness } from '../../support/use.ts';
import { ConflictError, TooManyRequestsError } from '../../../src/shared/errors.ts';
import { ENGINES } from '../../support/databases.ts';
import { unknownKey } from '../../support/problems.ts';
import { auditActions, tenantWithUser } from '../../support/actors.ts';

const START = '2026-11-22T12:00:00Z';
let clients = 0;
/** Each test reports from its own address, so the per-client budget is only spent where a test means to. */
const reporter = (userAgent = 'leak-finder/1.0') => ({ address: `10.8.0.${++clients}`, userAgent });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe.each(ENGINES)('leak reports (%s)', (engine) => {
  const h = useHarness({ engine, now: START, rewindClock: true });

  it("disables another tenant's key as leaked at once, audited in that tenant as the system with the reporter", async () => {
    const a = await tenantWithUser(h);
    const b = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(b.actor, { name: "b's key" });
    expect(await h.services.keys.check.check(secret, '10.8.1.1')).toMatchObject({ ok: true }); // cached on this instance
    // Someone of tenant A found B's key in a paste, with spaces around it.
    const from = reporter();
    expect(await h.services.keys.leaks.report({ keys: [` ${secret}\n`] }, from)).toEqual({ received: 1 });
    expect(await h.services.keys.check.check(secret, '10.8.1.1')).toEqual({ ok: false, reason: 'api_key_disabled' });
    expect((await h.services.keys.lifecycle.list(b.actor)).data[0]).toMatchObject({
      id: api_key.id,
      enabled: false,
      status: 'disabled',
      disabled_reason: 'leaked',
    });
    const leaked = (await auditActions(h, b.tenant.id)).filter((e) => e.action === 'api_key.leaked');
    expect(leaked).toEqual([
      containing({
        actor: containing({ type: 'system', id: null }),
        target: containing({ id: api_key.id, name: "b's key" }),
        detail: { hint: api_key.hint, reporter_address: from.address, reporter_user_agent: 'leak-finder/1.0' },
      }),
    ]);
    expect((await auditActions(h, a.tenant.id)).map((e) => e.action)).not.toContain('api_key.leaked');
  });

  it('answers the same receipt for junk, unknown keys and real keys, and counts every item', async () => {
    const { actor } = await tenantWithUser(h);
    const { secret } = await h.services.keys.lifecycle.create(actor, { name: 'real' });
    expect(await h.services.keys.leaks.report({ keys: ['hello', ''] }, reporter())).toEqual({ received: 2 });
    expect(await h.services.keys.leaks.report({ keys: [unknownKey(), secret, secret] }, reporter())).toEqual({
      received: 3,
    });
    expect((await h.services.keys.lifecycle.list(actor)).data[0]).toMatchObject({ disabled_reason: 'leaked' });
  });

  it('refuses to enable a leaked key again with 409 api_key_leaked; disabling it again changes nothing', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'leaky' });
    await h.services.keys.leaks.report({ keys: [secret] }, reporter());
    const error = await rejection(h.services.keys.lifecycle.setEnabled(actor, api_key.id, true));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('api_key_leaked');
    expect(await h.services.keys.lifecycle.setEnabled(actor, api_key.id, false)).toMatchObject({
      enabled: false,
      disabled_reason: 'leaked',
    });
  });

  it('marks a key a user had disabled as leaked, so it cannot be enabled later; a second report records nothing', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'off' });
    await h.services.keys.lifecycle.setEnabled(actor, api_key.id, false);
    await h.services.keys.leaks.report({ keys: [secret] }, reporter());
    await h.services.keys.leaks.report({ keys: [secret] }, reporter());
    expect((await h.services.keys.lifecycle.list(actor)).data[0]).toMatchObject({ disabled_reason: 'leaked' });
    expect((await auditActions(h, tenant.id)).filter((e) => e.action === 'api_key.leaked')).toHaveLength(1);
    expect(
      ((await rejection(h.services.keys.lifecycle.setEnabled(actor, api_key.id, true))) as ConflictError).code,
    ).toBe('api_key_leaked');
  });

  it('leaves an expired key alone: it works for no one already', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const { secret } = await h.services.keys.lifecycle.create(actor, { name: 'old', expires_at: '2026-11-23' });
    h.clock.set('2026-11-23T00:00:00Z');
    await h.services.keys.leaks.report({ keys: [secret] }, reporter());
    expect((await h.services.keys.lifecycle.list(actor)).data[0]).toMatchObject({
      status: 'expired',
      enabled: true,
      disabled_reason: null,
    });
    expect((await auditActions(h, tenant.id)).map((e) => e.action)).not.toContain('api_key.leaked');
  });

  it('disables a rolled key still in its overlap as leaked', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'rolling' });
    await h.services.keys.rolls.roll(actor, api_key.id, '24h');
    await h.services.keys.leaks.report({ keys: [secret] }, reporter());
    expect(await h.services.keys.check.check(secret, '10.8.1.2')).toEqual({ ok: false, reason: 'api_key_disabled' });
  });

  it('spends one point of a per-client budget per report, whatever it held: the 21st in a minute is refused', async () => {
    const from = reporter();
    for (let i = 0; i < 20; i++)
      expect(await h.services.keys.leaks.report({ keys: ['junk'] }, from)).toEqual({ received: 1 });
    const error = await rejection(h.services.keys.leaks.report({ keys: ['junk'] }, from));
    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect((error as TooManyRequestsError).retryAfterSeconds).toBeGreaterThan(0);
    // Another client still reports.
    expect(await h.services.keys.leaks.report({ keys: ['junk'] }, reporter())).toEqual({ received: 1 });
  });
});
