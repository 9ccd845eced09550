import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ADMIN, apiStatus, createKey, signIn, type CreatedKey } from '../support/instances.ts';
import {
  expectEachAnswered,
  FLIGHTS,
  HEALTHY_P99_MS,
  threeInstances,
  TRIALS,
  WHOAMI,
  type Answer,
} from './three-instances.ts';

/**
 * Back-office changes on A (docs/keys.md (Revocation)): in the tick A's response arrives, the key
 * is fired at B and C, where it was cached, and each must refuse it with the one status the
 * contract fixes. Also: a session and the metrics work across the three.
 */
describe('three instances on one PostgreSQL: changes made in the back office on A', () => {
  const t = threeInstances();
  const keyPath = (id: string) => `/backoffice/api/api-keys/${id}`;
  const userPath = (id: string) => `/backoffice/api/users/${id}`;

  it('accepts a key created on A on B and C', async () => {
    const { secret } = await createKey(t.admin, t.a);
    for (const instance of [t.a, t.b, t.c]) expect(await apiStatus(instance, secret, WHOAMI)).toBe(200);
  });

  it('serves a cached key from memory: a change made behind the feed is not seen (so what follows is the feed and the wait)', async () => {
    const { id, secret } = await createKey(t.admin, t.a);
    await t.warm(secret, WHOAMI, 200);
    await t.sql.query('update api_keys set enabled = false where id = $1', [id]);
    await sleep(200);
    for (const instance of t.others()) expect(await apiStatus(instance, secret, WHOAMI)).toBe(200);
    await t.sql.query('update api_keys set enabled = true where id = $1', [id]);
  });

  it(`refuses with 401 on B and C a key disabled on A, in the tick A answers (${TRIALS} trials)`, async () => {
    const { id, secret } = await createKey(t.admin, t.a);
    const answers: Answer[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      expect((await t.admin.request(t.a, 'PATCH', keyPath(id), { enabled: true })).status).toBe(200);
      await t.warm(secret, WHOAMI, 200);
      const disable = { method: 'PATCH' as const, path: keyPath(id), body: { enabled: false }, status: 200 };
      answers.push(...(await t.revokeOnA('disable (3 instances)', disable, secret, WHOAMI)));
    }
    expectEachAnswered(answers, 401, [t.b, t.c], TRIALS);
  }, 120_000);

  it(`refuses with 401 on B and C a key deleted on A, in the tick A answers (${TRIALS} trials)`, async () => {
    const answers: Answer[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const { id, secret } = await createKey(t.admin, t.a);
      await t.warm(secret, WHOAMI, 200);
      const remove = { method: 'DELETE' as const, path: keyPath(id), status: 204 };
      answers.push(...(await t.revokeOnA('delete (3 instances)', remove, secret, WHOAMI)));
    }
    expectEachAnswered(answers, 401, [t.b, t.c], TRIALS);
  }, 120_000);

  it(`refuses flights with 403 on B and C to a key whose creator lost flights:read on A, in the tick A answers (${TRIALS} trials)`, async () => {
    const user = await t.userWithKey();
    const answers: Answer[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      expect((await t.admin.request(t.a, 'PATCH', userPath(user.id), { roles: ['operations'] })).status).toBe(200);
      await t.warm(user.key, FLIGHTS, 200);
      const narrow = { method: 'PATCH' as const, path: userPath(user.id), body: { roles: ['crew'] }, status: 200 };
      answers.push(...(await t.revokeOnA('creator loses flights:read (3 instances)', narrow, user.key, FLIGHTS)));
    }
    expectEachAnswered(answers, 403, [t.b, t.c], TRIALS);
  }, 120_000);

  it(`refuses with 401 on B and C the key of a creator deleted on A, in the tick A answers (${TRIALS} trials)`, async () => {
    const users = await Promise.all(Array.from({ length: TRIALS }, () => t.userWithKey()));
    const answers: Answer[] = [];
    for (const user of users) {
      await t.warm(user.key, WHOAMI, 200);
      const remove = { method: 'DELETE' as const, path: userPath(user.id), status: 204 };
      answers.push(...(await t.revokeOnA('creator deleted (3 instances)', remove, user.key, WHOAMI)));
    }
    expectEachAnswered(answers, 401, [t.b, t.c], TRIALS);
  }, 180_000);

  it(`waits for healthy instances at most ${HEALTHY_P99_MS} ms at p99 over every revoking change above`, () => {
    const waits = t.healthyWaits.count('all');
    console.log(`p99 of ${waits} waits: ${t.healthyWaits.p99('all').toFixed(1)} ms`);
    expect(waits).toBe(4 * TRIALS);
    expect(t.healthyWaits.p99('all')).toBeLessThanOrEqual(HEALTHY_P99_MS);
  });

  it('serves a session signed in on A on B: a key created on B with A’s cookie and CSRF token', async () => {
    const session = await signIn(t.a, ADMIN.email);
    const created = await session.request<CreatedKey>(t.b, 'POST', '/backoffice/api/api-keys', { name: 'made on B' });
    expect(created.status).toBe(201);
    expect(await apiStatus(t.c, created.body.secret, WHOAMI)).toBe(200);
    const listed = await session.request<{ data: Array<{ id: string }> }>(t.c, 'GET', '/backoffice/api/api-keys');
    expect(listed.body.data.map((key) => key.id)).toContain(created.body.api_key.id);
  });

  it('exposes Prometheus metrics at /metrics, outside the public OpenAPI document', async () => {
    const response = await fetch(`${t.b.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    const value = (series: string) =>
      Number(
        text
          .split('\n')
          .find((line) => line.startsWith(`${series} `))
          ?.split(' ')[1],
      );
    expect(value('airkey_key_checks_total{outcome="ok"}')).toBeGreaterThan(0);
    expect(value('airkey_key_checks_total{outcome="api_key_disabled"}')).toBeGreaterThan(0);
    expect(value('airkey_key_check_duration_seconds_count')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_hits_total')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_misses_total')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_evictions_total')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_entries')).toBeGreaterThan(0);
    expect(value('airkey_change_feed_listening')).toBe(1);
    expect(value('airkey_change_feed_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('airkey_instance_lease_valid')).toBe(1);
    expect(value('airkey_revocation_wait_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('airkey_http_requests_total{method="GET",route="/api/v1/whoami",status="200"}')).toBeGreaterThan(0);
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).not.toContain('ask_');
    const openapi = (await (await fetch(`${t.b.url}/api/v1/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
  });
});
