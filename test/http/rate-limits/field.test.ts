import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyView, KeyList } from '../../../src/keys/key-schemas.ts';
import { auditActions } from '../../support/actors.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { createKeyWithLimit, whoamiStatuses } from '../../support/rate-limit-kit.ts';

/** The `rate_limit` field of a key (docs/keys.md (Rate limits)): set, listed, changed, removed, audited, rolled. */
describe('a key’s rate limit in the back office API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  it('sets the limit at creation and shows it in the answer and the list', async () => {
    const admin = await h.signedIn();
    const { api_key } = await createKeyWithLimit(admin, { requests: 100, window: '1h' });
    expect(api_key.rate_limit).toEqual({ requests: 100, window: '1h' });
    // Newest first: the test clock stands still unless moved.
    h.clock.advance(1_000);
    const none = await h.createKey(admin, { name: 'unlimited' });
    expect(none.api_key.rate_limit).toBeNull();
    const listed = (await admin.request('GET', '/backoffice/api/api-keys')).json<KeyList>();
    expect(listed.data.map((key) => [key.id, key.rate_limit])).toEqual([
      [none.api_key.id, null],
      [api_key.id, { requests: 100, window: '1h' }],
    ]);
  });

  it('changes and removes the limit with PATCH, audited with before and after, idempotently', async () => {
    const admin = await h.signedIn();
    const { api_key } = await createKeyWithLimit(admin, { requests: 10, window: '1m' });
    const url = `/backoffice/api/api-keys/${api_key.id}`;
    const changed = await admin.request('PATCH', url, { rate_limit: { requests: 5, window: '1s' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<ApiKeyView>()).toMatchObject({ rate_limit: { requests: 5, window: '1s' }, enabled: true });
    expect((await admin.request('PATCH', url, { rate_limit: { requests: 5, window: '1s' } })).statusCode).toBe(200);
    const both = await admin.request('PATCH', url, { enabled: false, rate_limit: null });
    expect(both.json<ApiKeyView>()).toMatchObject({ rate_limit: null, enabled: false, status: 'disabled' });
    const events = (await auditActions(h, admin.tenantId)).filter((e) => e.action === 'api_key.rate_limit_changed');
    expect(events.map((e) => [e.target.id, e.actor.id, e.detail.before, e.detail.after])).toEqual([
      [api_key.id, admin.userId, { requests: 10, window: '1m' }, { requests: 5, window: '1s' }],
      [api_key.id, admin.userId, { requests: 5, window: '1s' }, null],
    ]);
  });

  it('refuses a rate_limit that is not null or {requests: 1–1,000,000,000, window: 1s|1m|1h|1d} with 400 naming the field', async () => {
    const admin = await h.signedIn();
    const { api_key } = await h.createKey(admin);
    const bad: Array<[unknown, string]> = [
      [{ requests: 0, window: '1m' }, 'rate_limit.requests'],
      [{ requests: 1_000_000_001, window: '1m' }, 'rate_limit.requests'],
      [{ requests: 1.5, window: '1m' }, 'rate_limit.requests'],
      [{ requests: '10', window: '1m' }, 'rate_limit.requests'],
      [{ window: '1m' }, 'rate_limit.requests'],
      [{ requests: 10, window: '1M' }, 'rate_limit.window'],
      [{ requests: 10, window: '2m' }, 'rate_limit.window'],
      [{ requests: 10 }, 'rate_limit.window'],
      [{ requests: 10, window: '1m', burst: 5 }, 'rate_limit.burst'],
      [10, 'rate_limit'],
      ['10/m', 'rate_limit'],
    ];
    for (const [rateLimit, path] of bad) {
      for (const [method, url, body] of [
        ['POST', '/backoffice/api/api-keys', { name: 'bad', rate_limit: rateLimit }],
        ['PATCH', `/backoffice/api/api-keys/${api_key.id}`, { rate_limit: rateLimit }],
      ] as const) {
        const problem = expectProblem(await admin.request(method, url, body), 400, 'invalid_request');
        expect({ rateLimit, method, paths: problem.errors?.map((e) => e.path) }).toEqual({
          rateLimit,
          method,
          paths: [path],
        });
      }
    }
    const empty = expectProblem(
      await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, {}),
      400,
      'invalid_request',
    );
    expect(empty.errors).toEqual([expect.objectContaining({ path: 'body' })]);
    expect((await admin.request('GET', '/backoffice/api/api-keys')).json<KeyList>().data).toHaveLength(1);
  });

  it('gives a rolled key’s successor the same limit, with a budget of its own', async () => {
    const admin = await h.signedIn();
    const old = await createKeyWithLimit(admin, { requests: 2, window: '1h' });
    expect(await whoamiStatuses(h, old.secret, 3)).toEqual([200, 200, 429]);
    const rolled = await admin.request('POST', `/backoffice/api/api-keys/${old.api_key.id}/roll`, { overlap: '1h' });
    expect(rolled.statusCode).toBe(201);
    const { api_key, secret } = rolled.json<{ api_key: ApiKeyView; secret: string }>();
    expect(api_key.rate_limit).toEqual({ requests: 2, window: '1h' });
    expect(await whoamiStatuses(h, secret, 3)).toEqual([200, 200, 429]);
  });
});
