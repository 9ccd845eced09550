import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../../src/db/webhook-tables.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { waitFor } from '../../support/wait-for.ts';
import {
  insertWebhook,
  startReceiver,
  verifyWith,
  WEBHOOK_TEST_CONFIG,
  type Receiver,
  type WebhookBody,
} from '../../support/webhook-kit.ts';

/** docs/webhooks.md (Event types): every key change emits its event, signed, with the tenant, the ApiKey and the actor. */
describe('webhook events from key changes', () => {
  let h: Harness;
  const receivers: Receiver[] = [];

  /**
   * A tenant of its own, signed in as its System Administrator, with one endpoint at a receiver of
   * its own: each case reads only the events it caused, whatever ran before it.
   */
  async function subscribed() {
    const admin = await h.signedIn();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { secret } = await insertWebhook(
      h.services.database.db,
      h.services.webhooks.secrets,
      admin.tenantId,
      receiver.url,
    );
    let seen = 0;
    /** The events that arrived since the last call, each verified with the reference implementation. */
    async function next(n: number): Promise<WebhookBody[]> {
      await waitFor(() => receiver.received.length >= seen + n, { timeoutMs: 5_000, what: `${n} deliveries` });
      const fresh = receiver.received.slice(seen, seen + n).map((request) => verifyWith(secret, request));
      seen += n;
      return fresh.sort((a, b) => a.type.localeCompare(b.type));
    }
    return { admin, receiver, next, seen: () => seen };
  }

  beforeAll(async () => {
    h = await createHarness({ config: WEBHOOK_TEST_CONFIG });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  it('sends api_key.created with the tenant, the ApiKey and the actor, and never the secret', async () => {
    const { admin, receiver, next } = await subscribed();
    const created = await h.createKey(admin, { name: 'ci' });
    const [event] = await next(1);
    expect(event!.type).toBe('api_key.created');
    expect(event!.data.tenant).toEqual({ id: admin.tenantId, slug: expect.any(String) as string });
    expect(event!.data.api_key).toEqual(created.api_key);
    expect(event!.data.actor).toEqual({ type: 'user', id: admin.userId, email: admin.email });
    expect(receiver.received.at(-1)!.body).not.toContain(created.secret);
    expect(receiver.received.at(-1)!.headers['webhook-id']).toMatch(/^msg_[0-9a-f-]{36}$/);
  });

  it('sends api_key.disabled (disabled_by_user), api_key.enabled and api_key.deleted (deleted)', async () => {
    const { admin, next } = await subscribed();
    const { api_key } = await h.createKey(admin, { name: 'toggle' });
    await next(1);
    await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false });
    const [disabled] = await next(1);
    expect(disabled).toMatchObject({ type: 'api_key.disabled', data: { reason: 'disabled_by_user' } });
    expect(disabled!.data.api_key).toMatchObject({ id: api_key.id, enabled: false, status: 'disabled' });
    await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: true });
    expect((await next(1))[0]).toMatchObject({ type: 'api_key.enabled', data: { api_key: { enabled: true } } });
    expect((await admin.request('DELETE', `/backoffice/api/api-keys/${api_key.id}`)).statusCode).toBe(204);
    expect((await next(1))[0]).toMatchObject({
      type: 'api_key.deleted',
      data: { reason: 'deleted', api_key: { id: api_key.id } },
    });
  });

  it('sends created, rolled and deleted (retired) for a roll without overlap', async () => {
    const { admin, next } = await subscribed();
    const { api_key } = await h.createKey(admin, { name: 'roll-now' });
    await next(1);
    const rolled = await admin.request('POST', `/backoffice/api/api-keys/${api_key.id}/roll`, { overlap: 'none' });
    expect(rolled.statusCode).toBe(201);
    const successor = rolled.json<{ api_key: { id: string } }>().api_key;
    const [created, deleted, roll] = await next(3);
    expect(created).toMatchObject({ type: 'api_key.created', data: { api_key: { id: successor.id } } });
    expect(deleted).toMatchObject({
      type: 'api_key.deleted',
      data: { reason: 'retired', api_key: { id: api_key.id } },
    });
    expect(roll).toMatchObject({
      type: 'api_key.rolled',
      data: { api_key: { id: api_key.id }, new_api_key: { id: successor.id }, overlap: 'none' },
    });
  });

  it('sends api_key.deleted (retired, by the system) when a rolled key retires after its overlap', async () => {
    const { admin, next } = await subscribed();
    const { api_key } = await h.createKey(admin, { name: 'roll-later' });
    await next(1);
    await admin.request('POST', `/backoffice/api/api-keys/${api_key.id}/roll`, { overlap: '1h' });
    expect((await next(2)).map((e) => e.type)).toEqual(['api_key.created', 'api_key.rolled']);
    h.clock.advance(2 * 3_600_000);
    expect(await h.services.keys.rolls.deleteRetired()).toBe(1);
    expect((await next(1))[0]).toMatchObject({
      type: 'api_key.deleted',
      data: { reason: 'retired', api_key: { id: api_key.id }, actor: { type: 'system', id: null, email: null } },
    });
  });

  it('sends api_key.disabled (leaked) for a leak report', async () => {
    const { admin, next } = await subscribed();
    const { api_key, secret: key } = await h.createKey(admin, { name: 'pasted' });
    await next(1);
    const report = await h.app.inject({ method: 'POST', url: '/api/v1/leaked-keys', payload: { keys: [key] } });
    expect(report.statusCode).toBe(202);
    expect((await next(1))[0]).toMatchObject({
      type: 'api_key.disabled',
      data: { reason: 'leaked', api_key: { id: api_key.id, disabled_reason: 'leaked' }, actor: { type: 'system' } },
    });
  });

  it('sends api_key.disabled (creator_deleted) for each key of a deleted creator', async () => {
    const { admin, next } = await subscribed();
    const colleague = await h.user(admin.tenantId, ['system_administrator']);
    const theirs = await h.signIn(colleague.email);
    const keys = [await h.createKey(theirs, { name: 'a' }), await h.createKey(theirs, { name: 'b' })];
    await next(2);
    expect((await admin.request('DELETE', `/backoffice/api/users/${colleague.id}`)).statusCode).toBe(204);
    const disabled = await next(2);
    expect(disabled.map((e) => [e.type, e.data.reason])).toEqual([
      ['api_key.disabled', 'creator_deleted'],
      ['api_key.disabled', 'creator_deleted'],
    ]);
    expect(disabled.map((e) => e.data.api_key!.id).sort()).toEqual(keys.map((k) => k.api_key.id).sort());
    expect(disabled[0]!.data.actor).toMatchObject({ type: 'user', id: admin.userId });
  });

  it('records no event for a change that was rolled back', async () => {
    const { admin, next, seen } = await subscribed();
    const { db } = h.services.database;
    const before = (await db.select({ n: count() }).from(webhookEvents))[0]!.n;
    const failed = h.services.uow.inTransaction((_tx, _changed, emit) => {
      emit({ tenantId: admin.tenantId, type: 'api_key.created', data: { api_key: null } });
      return Promise.reject(new Error('the change fails after emitting'));
    });
    await expect(failed).rejects.toThrow('the change fails after emitting');
    const { api_key } = await h.createKey(admin, { name: 'after' });
    const [created] = await next(1);
    expect(created!.data.api_key!.id).toBe(api_key.id);
    const after = await db.select({ n: count() }).from(webhookEvents).where(eq(webhookEvents.tenantId, admin.tenantId));
    expect(after[0]!.n).toBe(seen());
    expect((await db.select({ n: count() }).from(webhookEvents))[0]!.n).toBe(before + 1);
  });
});
