import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import { mcpFrom } from '../../support/allowlist-kit.ts';
import type { Usage } from '../../../src/usage/usage-schemas.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { createKeyWithLimit, rateLimitFieldsOf, whoamiStatuses } from '../../support/rate-limit-kit.ts';

const START = '2026-11-22T12:00:30Z';

/** Refusals over the limit are `rate_limited` usage, not ok; /mcp counts against the same limit. */
describe('rate-limited usage and MCP', () => {
  let h: Harness;
  beforeAll(async () => {
    // The app as the server builds it, /mcp included.
    h = await createHarness({ now: START, app: { plugins: [mcpRoutes] } });
  });
  afterAll(async () => h.close());

  const mcp = (secret: string) => mcpFrom(h, secret, '127.0.0.1');

  it('counts refusals over the limit as rate_limited, never as ok, for the key and the tenant', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithLimit(admin, { requests: 3, window: '1m' });
    expect(await whoamiStatuses(h, secret, 7)).toEqual([200, 200, 200, 429, 429, 429, 429]);
    await h.services.usage.counter.flush();
    const key = (await admin.request('GET', `/backoffice/api/api-keys/${api_key.id}/usage`)).json<Usage>();
    expect(key.total).toEqual({ ok: 3, rejected: 0, rate_limited: 4, ip_refused: 0, quota_exceeded: 0 });
    expect(key.series.at(-1)).toEqual({
      start: '2026-11-22T12:00:00.000Z',
      ok: 3,
      rejected: 0,
      rate_limited: 4,
      ip_refused: 0,
      quota_exceeded: 0,
    });
    const tenant = (await admin.request('GET', '/backoffice/api/usage')).json<Usage & { top_keys: unknown[] }>();
    expect(tenant.total).toEqual({ ok: 3, rejected: 0, rate_limited: 4, ip_refused: 0, quota_exceeded: 0 });
    expect(tenant.top_keys).toEqual([{ id: api_key.id, name: api_key.name, hint: api_key.hint, ok: 3, rejected: 0 }]);
  });

  it('counts /mcp against the same limit as /api/v1, with the same fields and the same 429', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithLimit(admin, { requests: 2, window: '1m' });
    const first = await mcp(secret);
    expect(first.statusCode).toBe(200);
    expect(rateLimitFieldsOf(first.headers)).toEqual({
      policy: { name: 'key', q: 2, w: 60 },
      current: { name: 'key', r: 1, t: 30 },
    });
    expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
    const refused = await mcp(secret);
    expectProblem(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('30');
    expect(rateLimitFieldsOf(refused.headers)?.current).toEqual({ name: 'key', r: 0, t: 30 });
    const unlimited = await h.createKey(admin, { name: 'unlimited' });
    const plain = await mcp(unlimited.secret);
    expect(plain.statusCode).toBe(200);
    expect(rateLimitFieldsOf(plain.headers)).toBeNull();
  });
});
