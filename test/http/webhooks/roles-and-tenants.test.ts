import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../../src/shared/roles.ts';
import { createHarness, type Harness, type Session } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { addWebhook, HOOKS } from '../../support/webhook-kit.ts';

/** Every webhook endpoint as [method, path, body], for an endpoint id and one of its deliveries. */
function everyEndpoint(id: string, deliveryId: string): Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> {
  return [
    ['GET', HOOKS],
    ['POST', HOOKS, { url: 'https://new.example.com/' }],
    ['PATCH', `${HOOKS}/${id}`, { description: 'changed' }],
    ['POST', `${HOOKS}/${id}/rotate-secret`],
    ['POST', `${HOOKS}/${id}/test`],
    ['GET', `${HOOKS}/${id}/deliveries`],
    ['POST', `${HOOKS}/${id}/deliveries/${deliveryId}/retry`],
    ['DELETE', `${HOOKS}/${id}`],
  ];
}

/** docs/webhooks.md: permission api_keys:manage (System Administrator) only; another tenant's webhook or delivery is 404. */
describe('who may use the webhook endpoints', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  async function endpointWithDelivery(admin: Session): Promise<{ id: string; deliveryId: string }> {
    const { webhook } = await addWebhook(admin);
    const test = await admin.request('POST', `${HOOKS}/${webhook.id}/test`);
    expect(test.statusCode).toBe(202);
    return { id: webhook.id, deliveryId: test.json<{ delivery_id: string }>().delivery_id };
  }

  it('lets a System Administrator use every endpoint', async () => {
    const admin = await h.signedIn(['system_administrator']);
    const { id, deliveryId } = await endpointWithDelivery(admin);
    const statuses = [];
    for (const [method, path, body] of everyEndpoint(id, deliveryId)) {
      statuses.push((await admin.request(method, path, body)).statusCode);
    }
    expect(statuses).toEqual([200, 201, 200, 200, 202, 200, 202, 204]);
  });

  const refused = ROLES.filter(
    (role): role is Exclude<Role, 'system_administrator'> => role !== 'system_administrator',
  );
  it.each(refused)('answers %s 403 permission_denied on every endpoint and changes nothing', async (role) => {
    const admin = await h.signedIn(['system_administrator']);
    const { id, deliveryId } = await endpointWithDelivery(admin);
    const before = (await admin.request('GET', HOOKS)).body;
    const user = await h.signIn((await h.user(admin.tenantId, [role])).email);
    for (const [method, path, body] of everyEndpoint(id, deliveryId)) {
      expectProblem(await user.request(method, path, body), 403, 'permission_denied');
    }
    expect((await admin.request('GET', HOOKS)).body).toBe(before);
  });

  it("answers 404 not_found for another tenant's webhook and its deliveries, and changes nothing", async () => {
    const owner = await h.signedIn();
    const { id, deliveryId } = await endpointWithDelivery(owner);
    const before = (await owner.request('GET', HOOKS)).body;
    const stranger = await h.signedIn();
    for (const [method, path, body] of everyEndpoint(id, deliveryId).filter(([, path]) => path !== HOOKS)) {
      expectProblem(await stranger.request(method, path, body), 404, 'not_found');
    }
    expect((await stranger.request('GET', HOOKS)).json()).toEqual({ data: [] });
    expect((await owner.request('GET', HOOKS)).body).toBe(before);
  });

  it('answers 404 for a delivery id of another endpoint of the same tenant', async () => {
    const admin = await h.signedIn();
    const first = await endpointWithDelivery(admin);
    const second = await endpointWithDelivery(admin);
    const retry = await admin.request('POST', `${HOOKS}/${second.id}/deliveries/${first.deliveryId}/retry`);
    expectProblem(retry, 404, 'not_found');
  });

  it('answers 404 for an id that is not a UUID', async () => {
    const admin = await h.signedIn();
    expectProblem(await admin.request('PATCH', `${HOOKS}/not-a-uuid`, { enabled: true }), 404, 'not_found');
    expectProblem(await admin.request('GET', `${HOOKS}/not-a-uuid/deliveries`), 404, 'not_found');
  });

  it('answers 401 not_authenticated without a session', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: HOOKS }), 401, 'not_authenticated');
  });
});
