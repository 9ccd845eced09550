import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ADMIN, apiStatus, createKey, signIn, waitFor } from './instances.ts';
import { propagation } from './propagation.ts';
import { BOUND_MS, WHOAMI, is, sql, a, b, c, admin, others, warm, useThreeInstances } from './three-instances.ts';

/** What one instance does, the others see: keys, sessions; and what a deaf instance must not do. */
describe('three instances on one PostgreSQL: shared keys, sessions, readiness and metrics', () => {
  useThreeInstances();

  it('accepts a key created on A on B and C', async () => {
    const { secret } = await createKey(admin, a);
    for (const instance of [a, b, c]) expect(await apiStatus(instance, secret, WHOAMI)).toBe(200);
  });

  it('serves a cached key from memory: a change made behind the feed is not seen (so the propagation figures measure the feed)', async () => {
    const { id, secret } = await createKey(admin, a);
    await warm(secret, WHOAMI, 200);
    await sql.query('update api_keys set enabled = false where id = $1', [id]);
    await sleep(200);
    for (const instance of others()) expect(await apiStatus(instance, secret, WHOAMI)).toBe(200);
    await sql.query('update api_keys set enabled = true where id = $1', [id]);
  });

  it('does not accept on a deaf instance a key disabled while its listener was down, and is unready meanwhile', async () => {
    const { id, secret } = await createKey(admin, a);
    await warm(secret, WHOAMI, 200);
    const killed = await sql.query('select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1', [`airkey-listener-${b.pid}`]);
    expect(killed.rows).toEqual([{ killed: true }]);
    // B reports itself unready once it notices the loss (it re-subscribes within ~50 ms, so poll tightly).
    let deafChecks: { change_feed?: boolean } = {};
    await waitFor(
      async () => {
        const readiness = await fetch(`${b.url}/readyz`);
        deafChecks = ((await readiness.json()) as { checks: { change_feed: boolean } }).checks;
        return readiness.status === 503;
      },
      { timeoutMs: 5_000, everyMs: 2, what: 'B to report 503 after losing its listener' },
    );
    expect(deafChecks.change_feed).toBe(false);
    // Disabled at once, before B re-subscribes: B never hears of it.
    const disabled = await admin.request(a, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(await apiStatus(b, secret, WHOAMI)).toBe(401);
    await waitFor(async () => (await fetch(`${b.url}/readyz`)).status === 200, { timeoutMs: 10_000, what: 'B to listen again' });
    expect(await apiStatus(b, secret, WHOAMI)).toBe(401);
    // Back on the feed, B hears changes again.
    expect((await admin.request(a, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: true })).status).toBe(200);
    await propagation([b], secret, WHOAMI, is(200), performance.now());
    await warm(secret, WHOAMI, 200);
    expect((await admin.request(a, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: false })).status).toBe(200);
    expect(await propagation([b], secret, WHOAMI, is(401), performance.now())).toBeLessThanOrEqual(BOUND_MS);
  });

  it('serves a session signed in on A on B: a key created on B with A’s cookie and CSRF token', async () => {
    const session = await signIn(a, ADMIN.email);
    const created = await session.request(b, 'POST', '/backoffice/api/api-keys', { name: 'made on B' });
    expect(created.status).toBe(201);
    expect(await apiStatus(c, created.body.secret, WHOAMI)).toBe(200);
    const listed = await session.request(c, 'GET', '/backoffice/api/api-keys');
    expect(listed.body.data.map((key: { id: string }) => key.id)).toContain(created.body.api_key.id);
  });

  it('exposes Prometheus metrics at /metrics, outside the public OpenAPI document', async () => {
    const response = await fetch(`${b.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    const value = (series: string) => Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.split(' ')[1]);
    expect(value('airkey_key_checks_total{outcome="ok"}')).toBeGreaterThan(0);
    expect(value('airkey_key_checks_total{outcome="api_key_disabled"}')).toBeGreaterThan(0);
    expect(value('airkey_key_check_duration_seconds_count')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_hits_total')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_misses_total')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_evictions_total')).toBeGreaterThan(0);
    expect(value('airkey_key_cache_entries')).toBeGreaterThan(0);
    expect(value('airkey_change_feed_listening')).toBe(1);
    expect(value('airkey_change_feed_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('airkey_http_requests_total{method="GET",route="/api/v1/whoami",status="200"}')).toBeGreaterThan(0);
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).not.toContain('ask_');
    const openapi = await (await fetch(`${b.url}/api/v1/openapi.json`)).json();
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
  });
});
