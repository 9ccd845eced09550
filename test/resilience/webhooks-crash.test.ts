import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox, newWebhookSecret } from '../../src/webhooks/secret-box.ts';
import { freshPostgresUrl } from '../support/databases.ts';
import { createKey, freePort, signIn, startInstance, takeTurn, waitFor, type Instance } from '../support/instances.ts';
import { startReceiver, verifyWith, type Receiver } from '../support/webhook-kit.ts';

const SEALING_KEY = randomBytes(32).toString('base64');
const ENV = {
  AIRKEY_SECRET_KEY: SEALING_KEY,
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 20 }, () => '1s').join(','),
};

/**
 * docs/webhooks.md (Guarantees): an event is never lost when instances crash after answering. Two real servers on one
 * PostgreSQL are killed with SIGKILL right after a change's response, while the receiver is down;
 * once they are back and the receiver is up, the event arrives, signed.
 */
describe('webhook outbox through kill -9 of every instance (postgres)', () => {
  const live: Instance[] = [];
  let receiver: Receiver | undefined;
  afterAll(async () => {
    for (const instance of live) await instance.stop('SIGKILL');
    await receiver?.close();
  });

  it('delivers the event of an answered change after both instances were killed', { timeout: 240_000 }, async () => {
    const release = await takeTurn();
    try {
      const url = await freshPostgresUrl();
      const receiverPort = await freePort();
      const [a, b] = await Promise.all([startInstance('a', url, ENV), startInstance('b', url, ENV)]);
      live.push(a, b);
      const session = await signIn(a, 'admin@scale.test');
      const secret = newWebhookSecret();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('insert into webhooks (tenant_id, url, events, secret_sealed) values ($1, $2, $3, $4)', [
          session.tenantId,
          `http://127.0.0.1:${receiverPort}/hook`,
          ['api_key.created'],
          new SecretBox(Buffer.from(SEALING_KEY, 'base64')).seal(secret),
        ]);
      } finally {
        await client.end();
      }

      const created = await createKey(session, b, 'survivor');
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
      await Promise.all([a.exited, b.exited]);

      receiver = await startReceiver(undefined, receiverPort);
      const [c, d] = await Promise.all([startInstance('c', url, ENV), startInstance('d', url, ENV)]);
      live.push(c, d);
      await waitFor(() => receiver!.received.length > 0, { timeoutMs: 60_000, what: 'the delivery after restart' });
      const event = verifyWith(secret, receiver.received[0]!);
      expect(event.type).toBe('api_key.created');
      expect(event.data.api_key!.id).toBe(created.id);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    } finally {
      await release();
    }
  });
});
