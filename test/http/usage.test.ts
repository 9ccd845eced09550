import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use.ts';
import type { Role } from '../../src/shared/roles.ts';
import type { TenantUsage, Usage } from '../../src/usage/usage-schemas.ts';
import { type Session } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';

/** The usage endpoints (docs/api.md) over real requests to the public API. */
describe('usage endpoints', () => {
  const h = useHarness({ now: '2026-11-22T12:30:00Z' });

  async function flights(secret: string, times: number, status: number): Promise<void> {
    for (let i = 0; i < times; i++) expect((await h.api(secret, '/api/v1/flights')).statusCode).toBe(status);
  }

  it('charts accepted and rejected requests of a key and of the tenant, for each window', async () => {
    const admin = await h.signedIn();
    const busy = await h.createKey(admin, { name: 'busy' });
    const quiet = await h.createKey(admin, { name: 'quiet' });
    await flights(busy.secret, 3, 200);
    await flights(quiet.secret, 1, 200);
    await admin.request('PATCH', `/backoffice/api/api-keys/${quiet.api_key.id}`, { enabled: false });
    await flights(quiet.secret, 2, 401);
    // A key whose creator became crew passes the key check, then lacks flights:read.
    const creator = await h.signIn((await h.user(admin.tenantId, ['system_administrator'])).email);
    const demoted = await h.createKey(creator, { name: 'demoted' });
    await admin.request('PATCH', `/backoffice/api/users/${creator.userId}`, { roles: ['crew'] });
    await flights(demoted.secret, 1, 403);
    await h.services.usage.counter.flush();

    const day = await admin.request('GET', `/backoffice/api/api-keys/${busy.api_key.id}/usage?window=24h`);
    expect(day.statusCode).toBe(200);
    const dayUsage = day.json<Usage>();
    expect(dayUsage).toMatchObject({ window: '24h', bucket: 'hour', total: { ok: 3, rejected: 0 } });
    expect(dayUsage.series).toHaveLength(24);
    expect(dayUsage.series.at(-1)).toEqual({
      start: '2026-11-22T12:00:00.000Z',
      ok: 3,
      rejected: 0,
      rate_limited: 0,
      ip_refused: 0,
      quota_exceeded: 0,
    });

    const quietWeek = (
      await admin.request('GET', `/backoffice/api/api-keys/${quiet.api_key.id}/usage?window=7d`)
    ).json<Usage>();
    expect(quietWeek).toMatchObject({ window: '7d', bucket: 'day', total: { ok: 1, rejected: 2 } });
    expect(quietWeek.series.map((b) => b.start.slice(0, 10))).toEqual(
      ['16', '17', '18', '19', '20', '21', '22'].map((d) => `2026-11-${d}`),
    );
    const demotedUsage = (
      await admin.request('GET', `/backoffice/api/api-keys/${demoted.api_key.id}/usage`)
    ).json<Usage>();
    expect(demotedUsage).toMatchObject({ window: '24h', total: { ok: 0, rejected: 1 } });

    const tenant = await admin.request('GET', '/backoffice/api/usage?window=30d');
    expect(tenant.statusCode).toBe(200);
    const tenantUsage = tenant.json<TenantUsage>();
    expect(tenantUsage).toMatchObject({ window: '30d', bucket: 'day', total: { ok: 4, rejected: 3 } });
    expect(tenantUsage.series).toHaveLength(30);
    expect(tenantUsage.series.at(-1)).toEqual({
      start: '2026-11-22T00:00:00.000Z',
      ok: 4,
      rejected: 3,
      rate_limited: 0,
      ip_refused: 0,
      quota_exceeded: 0,
    });
    expect(tenantUsage.top_keys).toEqual([
      { id: busy.api_key.id, name: 'busy', hint: busy.api_key.hint, ok: 3, rejected: 0 },
      { id: quiet.api_key.id, name: 'quiet', hint: quiet.api_key.hint, ok: 1, rejected: 2 },
      { id: demoted.api_key.id, name: 'demoted', hint: demoted.api_key.hint, ok: 0, rejected: 1 },
    ]);
    expect((await admin.request('GET', '/backoffice/api/usage')).json<TenantUsage>()).toMatchObject({
      window: '24h',
      bucket: 'hour',
    });
  });

  it('rejects any other window with 400 invalid_request naming the field', async () => {
    const admin = await h.signedIn();
    const { api_key } = await h.createKey(admin);
    for (const url of [
      '/backoffice/api/usage?window=1h',
      `/backoffice/api/api-keys/${api_key.id}/usage?window=30D`,
      '/backoffice/api/usage?window=',
    ]) {
      const body = expectProblem(await admin.request('GET', url), 400, 'invalid_request');
      expect(body.errors).toEqual([expect.objectContaining({ path: 'window' })]);
    }
  });

  it('answers 404 for another tenant’s key, a deleted key or a malformed id', async () => {
    const admin = await h.signedIn();
    const stranger = await h.signedIn();
    const foreign = await h.createKey(stranger, { name: 'foreign' });
    const deleted = await h.createKey(admin, { name: 'deleted' });
    await admin.request('DELETE', `/backoffice/api/api-keys/${deleted.api_key.id}`);
    for (const id of [foreign.api_key.id, deleted.api_key.id, 'not-a-uuid']) {
      expectProblem(await admin.request('GET', `/backoffice/api/api-keys/${id}/usage?window=24h`), 404, 'not_found');
    }
    expect((await stranger.request('GET', `/backoffice/api/api-keys/${foreign.api_key.id}/usage`)).statusCode).toBe(
      200,
    );
  });

  it.each<Role>(['administrator', 'operations', 'crew'])('refuses %s with 403 permission_denied', async (role) => {
    const admin = await h.signedIn();
    const { api_key } = await h.createKey(admin);
    const user: Session = await h.signIn((await h.user(admin.tenantId, [role])).email);
    expectProblem(await user.request('GET', '/backoffice/api/usage?window=24h'), 403, 'permission_denied');
    expectProblem(
      await user.request('GET', `/backoffice/api/api-keys/${api_key.id}/usage?window=24h`),
      403,
      'permission_denied',
    );
  });

  it('needs a session', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/backoffice/api/usage' }), 401, 'not_authenticated');
  });
});
