import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../../src/db/webhook-tables.ts';
import type { ApiKeyView, KeyList } from '../../../src/keys/key-schemas.ts';
import { auditActions } from '../../support/actors.ts';
import { createKeyWithIps, patchIps, whoamiFrom } from '../../support/allowlist-kit.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { insertWebhook, startReceiver, WEBHOOK_TEST_CONFIG, type Receiver } from '../../support/webhook-kit.ts';

/** The `allowed_ips` field of a key (docs/api.md, docs/keys.md (IP allowlists)): set, canonical, listed, changed, audited, announced, rolled. */
describe('a key’s allowed_ips in the back office API', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    h = await createHarness({ config: WEBHOOK_TEST_CONFIG });
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  it('stores the list in canonical form at creation, and shows it in the answer and the list', async () => {
    const admin = await h.signedIn();
    const given = ['203.0.113.7/32', '2001:DB8::/32', '::ffff:198.51.100.0/120', '203.0.113.7'];
    const { api_key } = await createKeyWithIps(admin, given);
    const canonical = ['203.0.113.7', '2001:db8::/32', '198.51.100.0/24'];
    expect(api_key).toMatchObject({ allowed_ips: canonical, last_refused_ip: null, last_refused_at: null });
    h.clock.advance(1_000);
    const open = await h.createKey(admin, { name: 'anywhere' });
    expect(open.api_key.allowed_ips).toBeNull();
    const listed = (await admin.request('GET', '/backoffice/api/api-keys')).json<KeyList>();
    expect(listed.data.map((key) => [key.id, key.allowed_ips])).toEqual([
      [open.api_key.id, null],
      [api_key.id, canonical],
    ]);
  });

  it('changes and removes the list with PATCH, audited and announced with before and after, idempotently', async () => {
    const admin = await h.signedIn();
    const events = async () =>
      (
        await h.services.database.db
          .select({ body: webhookEvents.body })
          .from(webhookEvents)
          .where(and(eq(webhookEvents.tenantId, admin.tenantId), eq(webhookEvents.type, 'api_key.allowed_ips_changed')))
      ).map(({ body }) => body as { data: { before: unknown; after: unknown; api_key: ApiKeyView } });
    await insertWebhook(h.services.database.db, h.services.webhooks.secrets, admin.tenantId, receiver.url, {
      events: ['api_key.allowed_ips_changed'],
    });
    const { api_key } = await createKeyWithIps(admin, ['10.0.0.0/8']);
    const changed = await patchIps(admin, api_key.id, ['192.0.2.0/24', '2001:db8::1']);
    expect(changed.statusCode).toBe(200);
    expect(changed.json<ApiKeyView>().allowed_ips).toEqual(['192.0.2.0/24', '2001:db8::1']);
    // The same list, written differently, is the same list: nothing is recorded.
    expect((await patchIps(admin, api_key.id, ['192.0.2.0/24', '2001:DB8:0::1/128'])).statusCode).toBe(200);
    const opened = await patchIps(admin, api_key.id, null);
    expect(opened.json<ApiKeyView>().allowed_ips).toBeNull();
    const trail = (await auditActions(h, admin.tenantId)).filter((e) => e.action === 'api_key.allowed_ips_changed');
    expect(trail.map((e) => [e.target.id, e.actor.id, e.detail.before, e.detail.after])).toEqual([
      [api_key.id, admin.userId, ['10.0.0.0/8'], ['192.0.2.0/24', '2001:db8::1']],
      [api_key.id, admin.userId, ['192.0.2.0/24', '2001:db8::1'], null],
    ]);
    expect((await events()).map((e) => [e.data.before, e.data.after, e.data.api_key.allowed_ips])).toEqual([
      [['10.0.0.0/8'], ['192.0.2.0/24', '2001:db8::1'], ['192.0.2.0/24', '2001:db8::1']],
      [['192.0.2.0/24', '2001:db8::1'], null, null],
    ]);
  });

  it('refuses an empty list, a bad entry, a prefix out of range, host bits and 51 entries with 400 naming each entry', async () => {
    const admin = await h.signedIn();
    const { api_key } = await h.createKey(admin);
    const fifty = Array.from({ length: 50 }, (_, i) => `198.51.100.${i}`);
    const bad: Array<[unknown, string[]]> = [
      [[], ['allowed_ips']],
      [[...fifty, '198.51.100.50'], ['allowed_ips']],
      [['203.0.113.7', 'office'], ['allowed_ips.1']],
      [['10.0.0.0/33'], ['allowed_ips.0']],
      [['2001:db8::/129'], ['allowed_ips.0']],
      [
        ['10.0.0.1/8', '192.0.2.0/24', '2001:db8::1/32'],
        ['allowed_ips.0', 'allowed_ips.2'],
      ],
      [['127.1'], ['allowed_ips.0']],
      [['fe80::1%eth0'], ['allowed_ips.0']],
      [[42], ['allowed_ips.0']],
      ['10.0.0.0/8', ['allowed_ips']],
    ];
    for (const [allowedIps, paths] of bad) {
      for (const [method, url, body] of [
        ['POST', '/backoffice/api/api-keys', { name: 'bad', allowed_ips: allowedIps }],
        ['PATCH', `/backoffice/api/api-keys/${api_key.id}`, { allowed_ips: allowedIps }],
      ] as const) {
        const problem = expectProblem(await admin.request(method, url, body), 400, 'invalid_request');
        expect({ allowedIps, method, paths: problem.errors?.map((e) => e.path) }).toEqual({
          allowedIps,
          method,
          paths,
        });
      }
    }
    const hostBits = expectProblem(await patchIps(admin, api_key.id, ['10.0.0.1/8']), 400, 'invalid_request');
    expect(hostBits.errors?.[0]?.message).toBe('"10.0.0.1/8" has host bits set: the range is 10.0.0.0/8.');
    // Exactly 50 is allowed.
    expect((await patchIps(admin, api_key.id, fifty)).json<ApiKeyView>().allowed_ips).toHaveLength(50);
    expect((await admin.request('GET', '/backoffice/api/api-keys')).json<KeyList>().data).toHaveLength(1);
  });

  it('answers 404 for another tenant’s key and 403 to a role without api_keys:manage, changing nothing', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithIps(admin, ['127.0.0.1']);
    const stranger = await h.signedIn();
    expectProblem(await patchIps(stranger, api_key.id, ['0.0.0.0/0']), 404, 'not_found');
    const colleague = await h.user(admin.tenantId, ['administrator']);
    const administrator = await h.signIn(colleague.email);
    expectProblem(await patchIps(administrator, api_key.id, ['0.0.0.0/0']), 403, 'permission_denied');
    const operations = await h.signIn((await h.user(admin.tenantId, ['operations'])).email);
    expectProblem(await patchIps(operations, api_key.id, null), 403, 'permission_denied');
    expect((await whoamiFrom(h, secret, '192.0.2.1')).statusCode).toBe(403);
    const listed = (await admin.request('GET', '/backoffice/api/api-keys')).json<KeyList>();
    expect(listed.data[0]?.allowed_ips).toEqual(['127.0.0.1']);
  });

  it('gives a rolled key’s successor the same list, which it enforces', async () => {
    const admin = await h.signedIn();
    const old = await createKeyWithIps(admin, ['192.0.2.0/24']);
    const rolled = await admin.request('POST', `/backoffice/api/api-keys/${old.api_key.id}/roll`, { overlap: 'none' });
    expect(rolled.statusCode).toBe(201);
    const { api_key, secret } = rolled.json<{ api_key: ApiKeyView; secret: string }>();
    expect(api_key.allowed_ips).toEqual(['192.0.2.0/24']);
    expect((await whoamiFrom(h, secret, '192.0.2.77')).statusCode).toBe(200);
    expectProblem(await whoamiFrom(h, secret, '198.51.100.1'), 403, 'api_key_ip_not_allowed');
  });
});
