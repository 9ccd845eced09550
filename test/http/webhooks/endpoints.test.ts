import { eq } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../../src/shared/event-types.ts';
import { webhooks } from '../../../src/db/webhook-tables.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { addWebhook, HOOKS, PUBLIC_URL } from '../../support/webhook-kit.ts';

/** The webhook endpoints (docs/api.md) for a System Administrator: each answers as the contract says. */
describe('webhook endpoints', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  it('creates an endpoint subscribed to every event, with a whsec_ secret shown once and no-store', async () => {
    const admin = await h.signedIn();
    const response = await admin.request('POST', HOOKS, { url: PUBLIC_URL, description: ' Ops pager ' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toContain('no-store');
    const { webhook, secret } = response.json<{ webhook: Record<string, unknown>; secret: string }>();
    expect(webhook).toEqual({
      id: expect.any(String) as string,
      url: PUBLIC_URL,
      description: 'Ops pager',
      events: [...WEBHOOK_EVENT_TYPES],
      enabled: true,
      disabled_reason: null,
      created_at: expect.stringMatching(/Z$/) as string,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The reference implementation accepts it as a signing secret.
    expect(() => new StandardWebhook(secret)).not.toThrow();
    const list = await admin.request('GET', HOOKS);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ data: [webhook] });
    expect(list.body).not.toContain(secret.slice(6));
  });

  it('stores the secret sealed, never in clear', async () => {
    const admin = await h.signedIn();
    const { webhook, secret } = await addWebhook(admin);
    const [row] = await h.services.database.db.select().from(webhooks).where(eq(webhooks.id, webhook.id));
    expect(row!.secretSealed).not.toContain(secret.slice(6));
    expect(h.services.webhooks.secrets.open(row!.secretSealed)).toBe(secret);
  });

  it('keeps only the events chosen, in catalog order', async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin, { events: ['api_key.expired', 'api_key.created', 'api_key.expired'] });
    expect(webhook.events).toEqual(['api_key.created', 'api_key.expired']);
  });

  it('changes url, events and description, and disabling records disabled_by_user', async () => {
    const admin = await h.signedIn();
    const { webhook, secret } = await addWebhook(admin);
    const patch = await admin.request('PATCH', `${HOOKS}/${webhook.id}`, {
      url: 'https://other.example.com/in',
      events: ['webhook.test'],
      description: 'moved',
      enabled: false,
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toEqual({
      ...webhook,
      url: 'https://other.example.com/in',
      events: ['webhook.test'],
      description: 'moved',
      enabled: false,
      disabled_reason: 'disabled_by_user',
    });
    expect(patch.body).not.toContain(secret.slice(6));
    const enabled = await admin.request('PATCH', `${HOOKS}/${webhook.id}`, { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('deletes an endpoint: 204, then gone from the list and 404 by id', async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin);
    const remove = await admin.request('DELETE', `${HOOKS}/${webhook.id}`);
    expect(remove.statusCode).toBe(204);
    expect((await admin.request('GET', HOOKS)).json()).toEqual({ data: [] });
    expectProblem(await admin.request('PATCH', `${HOOKS}/${webhook.id}`, { enabled: false }), 404, 'not_found');
    expectProblem(await admin.request('DELETE', `${HOOKS}/${webhook.id}`), 404, 'not_found');
  });

  it('rotates the secret: a new one shown once with no-store, the old one kept as previous for 24 h', async () => {
    const admin = await h.signedIn();
    const { webhook, secret: first } = await addWebhook(admin);
    const response = await admin.request('POST', `${HOOKS}/${webhook.id}/rotate-secret`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const { secret } = response.json<{ secret: string }>();
    expect(Object.keys(response.json())).toEqual(['secret']);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(first);
    const [row] = await h.services.database.db.select().from(webhooks).where(eq(webhooks.id, webhook.id));
    const box = h.services.webhooks.secrets;
    expect(box.open(row!.secretSealed)).toBe(secret);
    expect(box.open(row!.previousSecretSealed!)).toBe(first);
    expect(row!.previousSecretUntil!.getTime() - h.clock.now().getTime()).toBe(24 * 60 * 60 * 1000);
  });

  it('records webhook.created, updated, secret_rotated and deleted in the audit trail', async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin);
    await admin.request('PATCH', `${HOOKS}/${webhook.id}`, { events: ['webhook.test'] });
    await admin.request('POST', `${HOOKS}/${webhook.id}/rotate-secret`);
    await admin.request('DELETE', `${HOOKS}/${webhook.id}`);
    const trail = (await admin.request('GET', '/backoffice/api/audit-events')).json<{
      data: Array<{ action: string; target: { type: string; id: string }; actor: { email: string } }>;
    }>().data;
    const mine = trail.filter((event) => event.target.id === webhook.id);
    expect(mine.map((event) => event.action)).toEqual([
      'webhook.deleted',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.created',
    ]);
    for (const event of mine)
      expect(event).toMatchObject({ target: { type: 'webhook' }, actor: { email: admin.email } });
  });

  it('refuses a mutation without the CSRF header with 403 csrf_rejected', async () => {
    const admin = await h.signedIn();
    const response = await h.app.inject({
      method: 'POST',
      url: HOOKS,
      headers: { cookie: admin.cookie },
      payload: { url: PUBLIC_URL },
    });
    expectProblem(response, 403, 'csrf_rejected');
    expect((await admin.request('GET', HOOKS)).json()).toEqual({ data: [] });
  });
});
