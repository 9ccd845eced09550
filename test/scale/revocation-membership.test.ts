import { describe, expect, it } from 'vitest';
import { apiStatus, createKey, waitFor } from '../support/instances.ts';
import {
  expectEachAnswered,
  HEALTHY_P99_MS,
  threeInstances,
  TRIALS,
  waitOf,
  WHOAMI,
  type Answer,
} from './three-instances.ts';

/**
 * Instances that lose their listener or stop (docs/keys.md (Revocation)): a disable on A still
 * reaches every running instance before A answers, and A waits only for those that can answer.
 */
describe('three instances on one PostgreSQL: instances that drop out', () => {
  const t = threeInstances();
  const keyPath = (id: string) => `/backoffice/api/api-keys/${id}`;
  const disable = (id: string) => ({
    method: 'PATCH' as const,
    path: keyPath(id),
    body: { enabled: false },
    status: 200,
  });

  it('refuses with 401 on an instance whose listener was killed a key disabled meanwhile: the writer waits out its lease', async () => {
    const { id, secret } = await createKey(t.admin, t.a);
    await t.warm(secret, WHOAMI, 200);
    const killed = await t.sql.query(
      'select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1',
      [`airkey-listener-${t.b.pid}`],
    );
    expect(killed.rows).toEqual([{ killed: true }]);
    // Disabled at once, before B re-subscribes: B never hears of it, so A waits for B's lease.
    const started = performance.now();
    const disabled = await t.admin.send(t.a, 'PATCH', keyPath(id), { enabled: false });
    const onB = apiStatus(t.b, secret, WHOAMI);
    const waitedMs = performance.now() - started;
    expect(disabled.status).toBe(200);
    expect(await onB).toBe(401);
    console.log(`listener of B killed: A's disable answered in ${Math.round(waitedMs)} ms; B answered 401`);
    expect(waitedMs).toBeLessThan(2_000);
    await waitFor(async () => (await fetch(`${t.b.url}/readyz`)).status === 200, {
      timeoutMs: 10_000,
      what: 'B to listen again',
    });
    expect(await apiStatus(t.b, secret, WHOAMI)).toBe(401);
    // Back on the feed, B hears changes again and acknowledges them.
    expect((await t.admin.request(t.a, 'PATCH', keyPath(id), { enabled: true })).status).toBe(200);
    await t.warm(secret, WHOAMI, 200);
    const answers = await t.revokeOnA('disable after B re-subscribed', disable(id), secret, WHOAMI);
    expectEachAnswered(answers, 401, [t.b, t.c], 1);
    expect(t.latencies.max(waitOf('disable after B re-subscribed'))).toBeLessThan(HEALTHY_P99_MS * 4);
  });

  // Last: it stops C, then B.
  it(`answers a disable with 3, 2 and 1 healthy instances (${TRIALS} trials each), waiting only for those running (alone: under ${HEALTHY_P99_MS} ms every time)`, async () => {
    const { id, secret } = await createKey(t.admin, t.a);
    for (const count of [3, 2, 1]) {
      if (count === 2) expect(await t.c.stop()).toBe(0);
      if (count === 1) expect(await t.b.stop()).toBe(0);
      const running = [t.a, t.b, t.c].slice(0, count);
      t.setOthers(running.slice(1));
      const label = `disable, ${count} healthy instance${count > 1 ? 's' : ''}`;
      const answers: Answer[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        expect((await t.admin.request(t.a, 'PATCH', keyPath(id), { enabled: true })).status).toBe(200);
        await t.warm(secret, WHOAMI, 200);
        expect(await apiStatus(t.a, secret, WHOAMI)).toBe(200);
        answers.push(...(await t.revokeOnA(label, disable(id), secret, WHOAMI)));
        answers.push({ instance: t.a.name, status: await apiStatus(t.a, secret, WHOAMI) });
      }
      expectEachAnswered(answers, 401, running, TRIALS);
    }
    // A stopped instance deregistered: nobody waits for it.
    expect(t.latencies.max(waitOf('disable, 1 healthy instance'))).toBeLessThan(HEALTHY_P99_MS);
  }, 180_000);
});
