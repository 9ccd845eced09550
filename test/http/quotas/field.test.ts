import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { createKeyWithQuota, listedKey } from '../../support/quota-kit.ts';
import { whoamiStatuses } from '../../support/rate-limit-kit.ts';

const START = '2026-11-22T12:00:15Z';
const WHOAMI = '/api/v1/whoami';

/** docs/keys.md (Quotas): `quota` on create, PATCH, roll and reset, what each refuses and what it records. */
describe('a key quota through the back office', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ now: START });
  });
  afterAll(async () => h.close());

  it.each([
    ['zero requests', { requests: 0, period: 'day' }, 'quota.requests'],
    ['negative requests', { requests: -5, period: 'day' }, 'quota.requests'],
    ['fractional requests', { requests: 2.5, period: 'day' }, 'quota.requests'],
    ['over 10^9 requests', { requests: 1_000_000_001, period: 'month' }, 'quota.requests'],
    ['requests as a string', { requests: '100', period: 'day' }, 'quota.requests'],
    ['an unknown period', { requests: 100, period: 'week' }, 'quota.period'],
    ['an unknown member', { requests: 100, period: 'day', burst: 5 }, 'quota.burst'],
  ])(
    'refuses %s with 400 invalid_request naming the field, on create and on PATCH, changing nothing',
    async (_, quota, path) => {
      const admin = await h.signedIn();
      const created = await admin.request('POST', '/backoffice/api/api-keys', { name: 'Bad quota', quota });
      const body = expectProblem(created, 400, 'invalid_request');
      expect(body.errors?.map((e) => e.path)).toContain(path);
      const { api_key } = await createKeyWithQuota(admin, { requests: 10, period: 'day' });
      const patched = await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { quota });
      expect(expectProblem(patched, 400, 'invalid_request').errors?.map((e) => e.path)).toContain(path);
      expect((await listedKey(h, admin, api_key.id)).quota).toMatchObject({ requests: 10, period: 'day' });
    },
  );

  it('shows a new quota with nothing used and the end of its period', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { api_key } = await createKeyWithQuota(admin, { requests: 1000, period: 'month' });
    expect(api_key.quota).toEqual({ requests: 1000, period: 'month', used: 0, resets_at: '2026-12-01T00:00:00.000Z' });
    const total = await createKeyWithQuota(admin, { requests: 50, period: 'total' });
    expect(total.api_key.quota).toEqual({ requests: 50, period: 'total', used: 0, resets_at: null });
  });

  it('reports what was used, and keeps it used when the quota is lowered below it: refused at once', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithQuota(admin, { requests: 10, period: 'day' });
    expect(await whoamiStatuses(h, secret, 4)).toEqual([200, 200, 200, 200]);
    expect((await listedKey(h, admin, api_key.id)).quota?.used).toBe(4);
    const lowered = await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, {
      quota: { requests: 3, period: 'day' },
    });
    expect(lowered.statusCode).toBe(200);
    expect(lowered.json()).toMatchObject({ quota: { requests: 3, period: 'day', used: 3 } });
    expectProblem(await h.api(secret, WHOAMI), 429, 'quota_exceeded');
    const raised = await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, {
      quota: { requests: 6, period: 'day' },
    });
    expect(raised.statusCode).toBe(200);
    // 4 were leased and spent; 2 are left of 6.
    expect(await whoamiStatuses(h, secret, 3)).toEqual([200, 200, 429]);
  });

  it('audits and announces a change with before and after, and records nothing for the same quota again', async () => {
    const admin = await h.signedIn();
    const { api_key } = await createKeyWithQuota(admin, null);
    const set = { requests: 500, period: 'day' } as const;
    for (let i = 0; i < 2; i++)
      expect((await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { quota: set })).statusCode).toBe(
        200,
      );
    expect(
      (await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { quota: null })).json(),
    ).toMatchObject({
      quota: null,
    });
    const audit = await admin.request('GET', '/backoffice/api/audit-events');
    const changes = audit
      .json<{ data: Array<{ action: string; target: { id: string }; detail: unknown }> }>()
      .data.filter((e) => e.action === 'api_key.quota_changed' && e.target.id === api_key.id)
      .map((e) => e.detail);
    expect(changes).toEqual([
      { hint: api_key.hint, before: set, after: null },
      { hint: api_key.hint, before: null, after: set },
    ]);
  });

  it('resets the current period: audited, re-opened at once, and 400 for a key without a quota', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithQuota(admin, { requests: 2, period: 'total' });
    expect(await whoamiStatuses(h, secret, 3)).toEqual([200, 200, 429]);
    const reset = await admin.request('POST', `/backoffice/api/api-keys/${api_key.id}/quota/reset`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ quota: { requests: 2, period: 'total', used: 0 } });
    expect(await whoamiStatuses(h, secret, 3)).toEqual([200, 200, 429]);
    const audit = await admin.request('GET', '/backoffice/api/audit-events');
    expect(audit.json<{ data: Array<{ action: string }> }>().data.map((e) => e.action)).toContain(
      'api_key.quota_reset',
    );
    const plain = await createKeyWithQuota(admin, null);
    expectProblem(
      await admin.request('POST', `/backoffice/api/api-keys/${plain.api_key.id}/quota/reset`),
      400,
      'invalid_request',
    );
  });

  it("answers 404 for another tenant's key, a deleted key and a malformed id, changing nothing", async () => {
    const admin = await h.signedIn();
    const other = await h.signedIn();
    const { api_key, secret } = await createKeyWithQuota(other, { requests: 1, period: 'total' });
    expect(await whoamiStatuses(h, secret, 2)).toEqual([200, 429]);
    expectProblem(await admin.request('POST', `/backoffice/api/api-keys/${api_key.id}/quota/reset`), 404, 'not_found');
    const patch = { quota: { requests: 100, period: 'day' } };
    expectProblem(await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, patch), 404, 'not_found');
    expect(await whoamiStatuses(h, secret, 1)).toEqual([429]);
    const mine = await createKeyWithQuota(admin, { requests: 5, period: 'day' });
    expect((await admin.request('DELETE', `/backoffice/api/api-keys/${mine.api_key.id}`)).statusCode).toBe(204);
    expectProblem(await admin.request('PATCH', `/backoffice/api/api-keys/${mine.api_key.id}`, patch), 404, 'not_found');
    expectProblem(
      await admin.request('POST', `/backoffice/api/api-keys/${mine.api_key.id}/quota/reset`),
      404,
      'not_found',
    );
    expectProblem(await admin.request('POST', '/backoffice/api/api-keys/not-a-key/quota/reset'), 404, 'not_found');
  });

  it('lets a rolled key carry the quota and what was used of it; both keys spend one count while the old one retires', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithQuota(admin, { requests: 5, period: 'day' });
    expect(await whoamiStatuses(h, secret, 3)).toEqual([200, 200, 200]);
    await h.services.limits.quotaMeter.flush();
    const rolled = await admin.request('POST', `/backoffice/api/api-keys/${api_key.id}/roll`, { overlap: '1h' });
    expect(rolled.statusCode).toBe(201);
    const { api_key: successor, secret: next } = rolled.json<{ api_key: { quota: unknown }; secret: string }>();
    expect(successor.quota).toMatchObject({ requests: 5, period: 'day', used: 3 });
    expect(await whoamiStatuses(h, next, 1)).toEqual([200]);
    expect(await whoamiStatuses(h, secret, 2)).toEqual([200, 429]);
    expect(await whoamiStatuses(h, next, 1)).toEqual([429]);
  });

  it('keeps the quota out of reach of a role without api_keys:manage', async () => {
    const admin = await h.signedIn();
    const { api_key } = await createKeyWithQuota(admin, { requests: 5, period: 'day' });
    const user = await h.user(admin.tenantId, ['administrator']);
    const viewer = await h.signIn(user.email);
    expectProblem(
      await viewer.request('POST', `/backoffice/api/api-keys/${api_key.id}/quota/reset`),
      403,
      'permission_denied',
    );
    expectProblem(
      await viewer.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { quota: null }),
      403,
      'permission_denied',
    );
  });
});
