import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../src/webhooks/safe-agent.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  deliveriesOf,
  insertWebhook,
  startReceiver,
  type Receiver,
  type DeliveryAttempt,
} from '../../support/webhook-kit.ts';

/**
 * docs/webhooks.md: without WEBHOOK_ALLOW_PRIVATE the address actually connected to is checked at every
 * attempt. Names are answered by an injected resolver, so a test decides what DNS says and when.
 */
describe('webhook deliveries refuse private addresses at connect', () => {
  let h: Harness;
  let receiver: Receiver;
  const answers = new Map<string, string[][]>();
  const lookups: string[] = [];

  async function attemptsTo(url: string): Promise<DeliveryAttempt[]> {
    const tenant = await h.tenant();
    const { db } = h.services.database;
    const hook = await insertWebhook(db, h.services.webhooks.secrets, tenant.id, url);
    await h.services.uow.inTransaction((_tx, _changed, emit) => {
      emit({ tenantId: tenant.id, type: 'webhook.test', data: {} });
      return Promise.resolve();
    });
    await waitFor(async () => (await deliveriesOf(db, hook.id))[0]?.status === 'failed', {
      timeoutMs: 5_000,
      what: 'the delivery to fail',
    });
    return (await deliveriesOf(db, hook.id))[0]!.attempts as DeliveryAttempt[];
  }

  beforeAll(async () => {
    h = await createHarness({
      config: { webhookAllowPrivate: false, webhookRetryScheduleMs: [20], webhookTimeoutMs: 1_000 },
      overrides: {
        // Each name answers from its list in turn, the last answer sticking.
        webhookResolver: (hostname) => {
          lookups.push(hostname);
          const queue = answers.get(hostname) ?? [];
          return Promise.resolve(queue.length > 1 ? queue.shift()! : (queue[0] ?? []));
        },
      },
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  it('blocks a literal loopback address and its IPv4-mapped IPv6 form (blocked_address)', async () => {
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]']) {
      const attempts = await attemptsTo(`http://${host}:${receiver.port}/hook`);
      expect(attempts.map((a) => [a.status_code, a.error])).toEqual([
        [null, 'blocked_address'],
        [null, 'blocked_address'],
      ]);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('blocks a name that resolves to 127.0.0.1', async () => {
    answers.set('internal.example.test', [['127.0.0.1']]);
    const attempts = await attemptsTo(`http://internal.example.test:${receiver.port}/hook`);
    expect(attempts.map((a) => a.error)).toEqual(['blocked_address', 'blocked_address']);
    expect(receiver.received).toHaveLength(0);
  });

  it('blocks at connect a name whose DNS answer changed after it was checked, looking it up once per attempt', async () => {
    answers.set('rebind.example.test', [['93.184.216.34'], ['127.0.0.1']]);
    // The check made when the URL was saved: the name looked public then.
    const [first] = answers.get('rebind.example.test')!.shift()!;
    expect(isPublicAddress(first!)).toBe(true);
    const before = lookups.filter((name) => name === 'rebind.example.test').length;
    const attempts = await attemptsTo(`http://rebind.example.test:${receiver.port}/hook`);
    expect(attempts.map((a) => a.error)).toEqual(['blocked_address', 'blocked_address']);
    expect(lookups.filter((name) => name === 'rebind.example.test').length - before).toBe(attempts.length);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('which addresses a delivery may connect to', () => {
  it('allows public unicast addresses only', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(isPublicAddress(address)).toBe(true);
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      'not an address',
    ];
    for (const address of refused) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });
});
