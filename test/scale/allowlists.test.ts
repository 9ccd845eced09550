import { describe, expect, it } from 'vitest';
import { withKey } from '../support/keys.ts';
import { clientAddress, createKey, type Instance } from '../support/instances.ts';
import { expectEachAnswered, threeInstances, TRIALS, WHOAMI, type Answer } from './three-instances.ts';

/**
 * docs/keys.md (IP allowlists, Revocation): narrowing a key's allowed_ips is a revocation. On three real processes sharing
 * one PostgreSQL, from the moment A's PATCH response arrives, B and C accept nothing more from the
 * removed range. The kit's clients are 10.x.y.z (named in X-Forwarded-For from a trusted
 * loopback peer), so the removed range is 10.0.0.0/8 and the range kept is 192.0.2.0/24.
 */
describe('three instances on one PostgreSQL: an allowlist narrowed on A', () => {
  const t = threeInstances();
  const keyPath = (id: string) => `/backoffice/api/api-keys/${id}`;
  const WIDE = ['10.0.0.0/8', '192.0.2.0/24'];
  const NARROW = ['192.0.2.0/24'];

  it(`refuses with 403 on B and C, in the tick A answers, a client in a range removed on A (${TRIALS} trials)`, async () => {
    const { id, secret } = await createKey(t.admin, t.a);
    const answers: Answer[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      expect((await t.admin.request(t.a, 'PATCH', keyPath(id), { allowed_ips: WIDE })).status).toBe(200);
      await t.warm(secret, WHOAMI, 200);
      const narrow = { method: 'PATCH' as const, path: keyPath(id), body: { allowed_ips: NARROW }, status: 200 };
      answers.push(...(await t.revokeOnA('narrow allowed_ips (3 instances)', narrow, secret, WHOAMI)));
    }
    expectEachAnswered(answers, 403, [t.b, t.c], TRIALS);
  }, 180_000);

  it('accepts nothing from the removed range that was sent after the response, under a steady load on B and C', async () => {
    const { id, secret } = await createKey(t.admin, t.a);
    expect((await t.admin.request(t.a, 'PATCH', keyPath(id), { allowed_ips: WIDE })).status).toBe(200);
    await t.warm(secret, WHOAMI, 200);
    let answeredAt = Number.POSITIVE_INFINITY;
    let stop = false;
    const load = [t.b, t.c].flatMap((on) => [1, 2, 3].map(() => steady(on, secret, () => stop)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const response = await t.admin.send(t.a, 'PATCH', keyPath(id), { allowed_ips: NARROW });
    answeredAt = performance.now();
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    stop = true;
    const outcomes = (await Promise.all(load)).flat();
    const after = outcomes.filter((o) => o.sentAt >= answeredAt);
    const before = outcomes.filter((o) => o.doneAt < answeredAt);
    const acceptedAfter = after.filter((o) => o.status === 200).length;
    console.log(
      `allowlist narrowed on A under load on B and C: ${before.length} answered before the response ` +
        `(${before.filter((o) => o.status === 200).length}× 200), ${after.length} sent after it: ` +
        `${acceptedAfter}× 200, ${after.filter((o) => o.status === 403).length}× 403`,
    );
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((o) => o.status !== 403)).toEqual([]);
  }, 60_000);
});

type Outcome = { status: number; sentAt: number; doneAt: number };

/** One client of the removed range asking `on` again and again until told to stop. */
async function steady(on: Instance, secret: string, stopped: () => boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const request = withKey(secret, `${on.url}${WHOAMI}`, 'header', { 'x-forwarded-for': clientAddress() });
  while (!stopped()) {
    const sentAt = performance.now();
    const response = await fetch(request.url, { headers: request.headers });
    await response.arrayBuffer();
    outcomes.push({ status: response.status, sentAt, doneAt: performance.now() });
  }
  return outcomes;
}
