import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { freezingProxy } from './freezing-proxy.ts';
import {
  ADMIN,
  apiStatus,
  createKey,
  signIn,
  startInstance,
  takeTurn,
  waitFor,
  type Instance,
  type Session,
} from '../support/instances.ts';
import { Latencies } from './latencies.ts';

/**
 * docs/keys.md (Revocation) when an instance cannot confirm: C is cut off from PostgreSQL (every connection silent,
 * as in a partition) or frozen (SIGSTOP). A disable on A must still answer within
 * REVOCATION_WAIT_MS plus a margin, and from its answer on C must not accept the key.
 */

const REVOCATION_WAIT_MS = 2_000; // the default
const MARGIN_MS = 250;
const TRIALS = 3;
const WHOAMI = '/api/v1/whoami';

describe('an instance that cannot confirm a revocation', () => {
  let a: Instance, b: Instance, c: Instance;
  let proxy: Awaited<ReturnType<typeof freezingProxy>>;
  let admin: Session;
  const latencies = new Latencies();
  let release: () => Promise<void>;

  beforeAll(async () => {
    release = await takeTurn();
    const databaseUrl = await freshPostgresUrl();
    proxy = await freezingProxy(databaseUrl);
    a = await startInstance('A', databaseUrl);
    [b, c] = await Promise.all([startInstance('B', databaseUrl), startInstance('C', proxy.url)]);
    admin = await signIn(a, ADMIN.email);
  });

  afterAll(async () => {
    console.log(`\n${latencies.table("disable on A while C cannot confirm: A's response (ms)")}\n`);
    if (c) process.kill(c.pid, 'SIGCONT');
    proxy?.heal();
    await Promise.all([a, b, c].map((instance) => instance?.stop('SIGKILL')));
    await proxy?.close();
    await release?.();
  });

  /** A key accepted on every instance, cached on C, with C holding its lease again. */
  async function keyCachedOnC(): Promise<{ id: string; secret: string }> {
    const leaseHeld = async () =>
      ((await (await fetch(`${c.url}/readyz`)).json()) as { checks: { lease: boolean } }).checks.lease;
    await waitFor(leaseHeld, {
      timeoutMs: 20_000,
      what: 'C to hold its lease',
    });
    const key = await createKey(admin, a);
    for (const instance of [a, b, c]) expect(await apiStatus(instance, key.secret, WHOAMI)).toBe(200);
    return key;
  }

  /** Disables on A; resolves with A's response time and what B and C answered in that same tick. */
  async function disableOnA(label: string, id: string, secret: string): Promise<{ onB: number; onC: Promise<number> }> {
    const started = performance.now();
    const response = await admin.send(a, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: false });
    const onC = apiStatus(c, secret, WHOAMI);
    const onB = apiStatus(b, secret, WHOAMI);
    latencies.add(label, performance.now() - started);
    expect(response.status).toBe(200);
    onC.catch(() => {});
    return { onB: await onB, onC };
  }

  it(`partitioned from PostgreSQL: A answers a disable within REVOCATION_WAIT_MS, C answers 503 from then on (never from its cache), and C recovers by itself (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const { id, secret } = await keyCachedOnC();
      proxy.partition();
      const { onB, onC } = await disableOnA('C partitioned', id, secret);
      expect(onB).toBe(401);
      // C's lease ran out before A answered: it reads through, cannot reach the database, and says so.
      const answered = { onC: await onC, again: await apiStatus(c, secret, WHOAMI) };
      console.log(
        `C partitioned, trial ${trial + 1}: B answered ${onB}, C answered ${answered.onC} then ${answered.again}`,
      );
      expect(answered).toEqual({ onC: 503, again: 503 });
      proxy.heal();
      await waitFor(async () => (await apiStatus(c, secret, WHOAMI)) === 401, {
        timeoutMs: 20_000,
        what: 'C to answer from the database again',
        everyMs: 100,
      });
      const fresh = await createKey(admin, a);
      await waitFor(async () => (await apiStatus(c, fresh.secret, WHOAMI)) === 200, {
        timeoutMs: 20_000,
        what: 'C to accept a new key again',
        everyMs: 100,
      });
    }
    expect(latencies.max('C partitioned')).toBeLessThan(REVOCATION_WAIT_MS + MARGIN_MS);
  }, 180_000);

  it(`frozen (SIGSTOP): A answers a disable within REVOCATION_WAIT_MS, and after SIGCONT C's first answer for the key is a refusal (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const { id, secret } = await keyCachedOnC();
      process.kill(c.pid, 'SIGSTOP');
      let onC: Promise<number>;
      try {
        const answered = await disableOnA('C frozen (SIGSTOP)', id, secret);
        expect(answered.onB).toBe(401);
        onC = answered.onC; // sent while C is stopped: answered after SIGCONT
      } finally {
        process.kill(c.pid, 'SIGCONT');
      }
      expect(await onC).toBe(401);
      expect(await apiStatus(c, secret, WHOAMI)).toBe(401);
    }
    expect(latencies.max('C frozen (SIGSTOP)')).toBeLessThan(REVOCATION_WAIT_MS + MARGIN_MS);
  }, 120_000);
});
