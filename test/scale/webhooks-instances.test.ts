import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../src/app/services.ts';
import { tenantWithUser } from '../support/actors.ts';
import { createHarness, type Harness } from '../support/harness.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { waitFor } from '../support/wait-for.ts';
import {
  insertWebhook,
  startReceiver,
  verifyWith,
  WEBHOOK_TEST_CONFIG,
  type Receiver,
} from '../support/webhook-kit.ts';

const START = '2026-11-22T12:00:00Z';
const DAY = 86_400_000;

/** docs/webhooks.md (Guarantees) with two instances on one PostgreSQL: each event is emitted once and each attempt made by one. */
describe('webhooks across two instances (postgres)', () => {
  let a: Harness;
  let b: ServiceRoot;
  let receiver: Receiver;
  const bClock = new ManualClock(new Date(START));

  beforeAll(async () => {
    a = await createHarness({ engine: 'postgres', now: START, config: WEBHOOK_TEST_CONFIG });
    b = await createServices(a.config, { clock: bClock });
    await b.start();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await receiver.close();
  });

  it('delivers 40 changes made on both instances 40 times, none twice', async () => {
    const { tenant, actor } = await tenantWithUser(a);
    const { secret } = await insertWebhook(
      a.services.database.db,
      a.services.webhooks.secrets,
      tenant.id,
      receiver.url,
    );
    const before = receiver.received.length;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a.services : b).keys.lifecycle.create(actor, { name: `key ${i}` }),
      ),
    );
    await waitFor(() => receiver.received.length - before >= 40, { timeoutMs: 15_000, what: '40 deliveries' });
    // Long enough for a second claim of any of them, had one happened (both instances poll every second).
    await sleep(2_500);
    const mine = receiver.received.slice(before);
    expect(mine).toHaveLength(40);
    expect(new Set(mine.map((r) => r.headers['webhook-id'])).size).toBe(40);
    const keyIds = new Set(mine.map((r) => verifyWith(secret, r).data.api_key!.id));
    expect(keyIds.size).toBe(40);
  });

  it('emits api_key.expiring at 7 days and 1 day and api_key.expired once per key, sweeping on both at once', async () => {
    const { tenant, actor } = await tenantWithUser(a);
    const { secret } = await insertWebhook(
      a.services.database.db,
      a.services.webhooks.secrets,
      tenant.id,
      receiver.url,
      {
        events: ['api_key.expiring', 'api_key.expired'],
      },
    );
    const inFiveDays = await a.services.keys.lifecycle.create(actor, { name: 'five days', expires_at: '2026-11-27' });
    await a.services.keys.lifecycle.create(actor, { name: 'twelve hours', expires_at: '2026-11-23' });
    const name = (id: string) => (id === inFiveDays.api_key.id ? 'five days' : 'twelve hours');
    const before = receiver.received.length;
    const sweepBoth = () => Promise.all([a.services.keys.expirySweep.run(), b.keys.expirySweep.run()]);
    const advance = (ms: number) => {
      a.clock.advance(ms);
      bClock.advance(ms);
    };

    await sweepBoth();
    advance(4 * DAY); // 26th 12:00: the five-day key is within a day, the other has expired
    await sweepBoth();
    advance(DAY); // 27th 12:00: both have expired
    await sweepBoth();
    await sweepBoth();

    await waitFor(() => receiver.received.length - before >= 5, { timeoutMs: 10_000, what: '5 expiry events' });
    await sleep(1_500);
    const events = receiver.received.slice(before).map((r) => verifyWith(secret, r));
    const seen = events
      .map((e) => [e.type, name(e.data.api_key!.id), e.data.days_left ?? null])
      .map(String)
      .sort();
    expect(seen).toEqual(
      [
        ['api_key.expiring', 'five days', 7],
        ['api_key.expiring', 'twelve hours', 1],
        ['api_key.expiring', 'five days', 1],
        ['api_key.expired', 'twelve hours', null],
        ['api_key.expired', 'five days', null],
      ]
        .map(String)
        .sort(),
    );
  });
});
