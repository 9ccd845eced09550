import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../../src/db/webhook-tables.ts';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import { mcpFrom } from '../../support/allowlist-kit.ts';
import type { Usage } from '../../../src/usage/usage-schemas.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { createKeyWithQuota, limitMembersOf } from '../../support/quota-kit.ts';
import { whoamiStatuses } from '../../support/rate-limit-kit.ts';
import { insertWebhook, startReceiver, WEBHOOK_TEST_CONFIG, type Receiver } from '../../support/webhook-kit.ts';

const START = '2026-11-22T12:00:30Z';

/** docs/keys.md (Quotas) and docs/webhooks.md: quota_exceeded usage, the quota_low and quota_exhausted events, and /mcp on the same count. */
describe('quota usage, events and MCP', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    h = await createHarness({ now: START, config: WEBHOOK_TEST_CONFIG, app: { plugins: [mcpRoutes] } });
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  /** Events are recorded for the endpoints that want them: one that wants every quota event. */
  const subscribe = (tenantId: string) =>
    insertWebhook(h.services.database.db, h.services.webhooks.secrets, tenantId, receiver.url, {
      events: ['api_key.quota_changed', 'api_key.quota_low', 'api_key.quota_exhausted'],
    });

  const quotaEventsOf = async (tenantId: string) =>
    h.services.database.db
      .select({ type: webhookEvents.type, body: webhookEvents.body })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.tenantId, tenantId), like(webhookEvents.type, 'api_key.quota_%')));

  it('counts refusals over the quota as quota_exceeded, never as ok, for the key and the tenant', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithQuota(admin, { requests: 2, period: 'day' });
    expect(await whoamiStatuses(h, secret, 5)).toEqual([200, 200, 429, 429, 429]);
    await h.services.usage.counter.flush();
    const key = (await admin.request('GET', `/backoffice/api/api-keys/${api_key.id}/usage`)).json<Usage>();
    expect(key.total).toEqual({ ok: 2, rejected: 0, rate_limited: 0, ip_refused: 0, quota_exceeded: 3 });
    const tenant = (await admin.request('GET', '/backoffice/api/usage')).json<Usage>();
    expect(tenant.total).toMatchObject({ ok: 2, quota_exceeded: 3 });
  });

  it('announces quota_low at 80% and quota_exhausted at the first refusal, each once per period, with data.quota', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    await subscribe(admin.tenantId);
    const { api_key, secret } = await createKeyWithQuota(admin, { requests: 5, period: 'day' });
    expect(await whoamiStatuses(h, secret, 3)).toEqual([200, 200, 200]);
    expect(await quotaEventsOf(admin.tenantId)).toEqual([]);
    expect(await whoamiStatuses(h, secret, 5)).toEqual([200, 200, 429, 429, 429]);
    await expect.poll(async () => (await quotaEventsOf(admin.tenantId)).length).toBe(2);
    const events = await quotaEventsOf(admin.tenantId);
    const low = events.find((e) => e.type === 'api_key.quota_low');
    const exhausted = events.find((e) => e.type === 'api_key.quota_exhausted');
    expect(low?.body).toMatchObject({
      data: { api_key: { id: api_key.id }, quota: { requests: 5, period: 'day', used: 4 }, actor: { type: 'system' } },
    });
    expect(exhausted?.body).toMatchObject({ data: { quota: { requests: 5, period: 'day', used: 5 } } });
    expect(events.filter((e) => e.type === 'api_key.quota_changed')).toHaveLength(0);
    expect(JSON.stringify(events)).not.toContain(secret);
    // The next day is a new period: announced again.
    h.clock.set('2026-11-23T08:00:00Z');
    expect(await whoamiStatuses(h, secret, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    await expect.poll(async () => (await quotaEventsOf(admin.tenantId)).length).toBe(4);
  });

  it('announces a change as api_key.quota_changed with before and after', async () => {
    const admin = await h.signedIn();
    await subscribe(admin.tenantId);
    const { api_key } = await createKeyWithQuota(admin, null);
    const patched = await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, {
      quota: { requests: 50, period: 'month' },
    });
    expect(patched.statusCode).toBe(200);
    const [changed] = await quotaEventsOf(admin.tenantId);
    expect(changed).toMatchObject({
      type: 'api_key.quota_changed',
      body: { data: { before: null, after: { requests: 50, period: 'month' }, api_key: { quota: { used: 0 } } } },
    });
  });

  it('counts /mcp against the same quota as /api/v1, with the same fields, whoami limits and 429', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { secret } = await createKeyWithQuota(admin, { requests: 2, period: 'total' });
    const mcp = () => mcpFrom(h, secret, '127.0.0.1');
    const first = await mcp();
    expect(first.statusCode).toBe(200);
    expect(limitMembersOf(first.headers)).toEqual({ policy: { quota: { q: 2 } }, current: { quota: { r: 1 } } });
    const whoami = await mcpFrom(h, secret, '127.0.0.1', {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    });
    // The MCP whoami tool reports what the REST whoami does: this request spent the last one.
    expect(
      whoami.json<{ result: { structuredContent: { limits: unknown } } }>().result.structuredContent.limits,
    ).toEqual({
      rate_limit: null,
      quota: { requests: 2, period: 'total', remaining: 0, resets_at: null },
    });
    const refused = await mcp();
    expectProblem(refused, 429, 'quota_exceeded');
    expect(limitMembersOf(refused.headers)?.current).toEqual({ quota: { r: 0 } });
  });
});
