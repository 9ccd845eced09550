import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { ManualClock } from '../../support/manual-clock.ts';
import { tenantWithUser } from '../../support/actors.ts';
import { useHarness } from '../../support/use.ts';

const START = '2026-11-22T12:00:00Z';
const HOUR = 3_600_000;

/**
 * Resolves when B has heard the change for this key. The feed (pg_notify) reaches B a moment after
 * A's commit; making A's answer wait for every instance is the revocation-wait work (docs/keys.md (Revocation)), not
 * the roll's, so these tests wait for the notification rather than assume it.
 */
function heardOn(services: ServiceRoot, keyId: string): Promise<void> {
  return new Promise((resolve) =>
    services.changes.onChange((change) => change.type === 'key' && change.id === keyId && resolve()),
  );
}

/** Two instances on one PostgreSQL: a roll on A is honoured by B, which had the old key cached. */
describe('rolling a key, seen from a second instance (postgres)', () => {
  const a = useHarness({ engine: 'postgres', now: START });
  let b: ServiceRoot;
  const bClock = new ManualClock(new Date(START));
  const onB = (secret: string) => b.keys.check.check(secret, '10.6.1.1');

  beforeAll(async () => {
    b = await createServices(a.config, { clock: bClock });
    await b.start();
  });
  afterAll(async () => b?.close());

  it('accepts the old key on B until 1 ms before retires_at and refuses it there from that instant', async () => {
    const { actor } = await tenantWithUser(a);
    const old = await a.services.keys.lifecycle.create(actor, { name: 'shared' });
    expect(await onB(old.secret)).toMatchObject({ ok: true });
    const heard = heardOn(b, old.api_key.id);
    const rolled = await a.services.keys.rolls.roll(actor, old.api_key.id, '1h');
    await heard;
    const retiresAt = Date.parse(START) + HOUR;
    expect(rolled.previous?.retires_at).toBe(new Date(retiresAt).toISOString());
    bClock.set(new Date(retiresAt - 1));
    expect(await onB(old.secret)).toMatchObject({ ok: true, keyId: old.api_key.id });
    expect(await onB(rolled.secret)).toMatchObject({ ok: true, keyId: rolled.api_key.id });
    bClock.set(new Date(retiresAt));
    expect(await onB(old.secret)).toEqual({ ok: false, reason: 'api_key_invalid' });
    bClock.set(START);
  });

  it('refuses the old key on B as soon as B hears of a roll without overlap', async () => {
    const { actor } = await tenantWithUser(a);
    const old = await a.services.keys.lifecycle.create(actor, { name: 'at once' });
    expect(await onB(old.secret)).toMatchObject({ ok: true });
    const heard = heardOn(b, old.api_key.id);
    const rolled = await a.services.keys.rolls.roll(actor, old.api_key.id, 'none');
    await heard;
    expect(await onB(old.secret)).toEqual({ ok: false, reason: 'api_key_invalid' });
    expect(await onB(rolled.secret)).toMatchObject({ ok: true });
  });
});
