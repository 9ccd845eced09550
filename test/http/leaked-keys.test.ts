import { describe, expect, it } from 'vitest';
import type { KeyList } from '../../src/keys/key-schemas.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { apiFrom, expectProblem, unknownKey } from '../support/problems.ts';
import { anyString, json, useHarness } from '../support/use.ts';

/** `POST /api/v1/leaked-keys` (docs/api.md): no key needed, always 202, throttled per client. */
describe('reporting leaked keys over HTTP', () => {
  const h = useHarness();
  let clients = 0;
  const report = (payload: unknown, client = `10.4.0.${++clients}`, headers: Record<string, string> = {}) =>
    h.app.inject({
      method: 'POST',
      url: '/api/v1/leaked-keys',
      payload: payload as Record<string, unknown>,
      remoteAddress: client,
      headers,
    });

  it('answers 202 {received} alike for junk, an unknown key and a real key, and the real key stops working', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await h.createKey(admin, { name: 'pasted' });
    expect((await apiFrom(h, '10.4.1.1', secret, '/api/v1/whoami')).statusCode).toBe(200);
    const answers = [];
    for (const keys of [['not a key'], [unknownKey()], [secret]]) {
      const response = await report({ keys }, '10.4.1.2', { 'user-agent': 'scanner/2.0' });
      answers.push([response.statusCode, response.json()]);
    }
    expect(answers).toEqual([
      [202, { received: 1 }],
      [202, { received: 1 }],
      [202, { received: 1 }],
    ]);
    expectProblem(await apiFrom(h, '10.4.1.1', secret, '/api/v1/whoami'), 401, 'api_key_disabled');
    const leaked = (await h.services.audit.list(SYSTEM_ACTOR, admin.tenantId, 50)).data.find(
      (e) => e.action === 'api_key.leaked',
    );
    expect(leaked).toMatchObject({
      actor: { type: 'system' },
      target: { id: api_key.id },
      detail: { reporter_address: '10.4.1.2', reporter_user_agent: 'scanner/2.0', hint: api_key.hint },
    });
  });

  it('needs no key, and ignores a bad one sent along', async () => {
    const response = await report({ keys: ['x'] }, undefined, { 'x-api-key': 'ask_nonsense' });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ received: 1 });
  });

  it('answers 409 api_key_leaked when someone enables a leaked key', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await h.createKey(admin, { name: 'found in a gist' });
    expect((await report({ keys: [secret] })).statusCode).toBe(202);
    const patch = await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: true });
    expectProblem(patch, 409, 'api_key_leaked');
    const listed = json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data[0];
    expect(listed).toMatchObject({ id: api_key.id, enabled: false, disabled_reason: 'leaked', status: 'disabled' });
  });

  it.each([
    ['no keys', { keys: [] }],
    ['101 keys', { keys: Array.from({ length: 101 }, (_, i) => `k${i}`) }],
    ['an item over 200 characters', { keys: ['a'.repeat(201)] }],
    ['a number among the keys', { keys: [42] }],
    ['keys not a list', { keys: 'ask_x' }],
    ['an unknown field', { keys: ['x'], note: 'hi' }],
    ['no body field at all', {}],
  ])('answers 400 invalid_request for %s', async (_what, payload) => {
    expectProblem(await report(payload), 400, 'invalid_request');
  });

  it('accepts 100 items of 200 characters', async () => {
    const response = await report({ keys: Array.from({ length: 100 }, () => 'a'.repeat(200)) });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ received: 100 });
  });

  it('answers 429 with Retry-After once a client has sent 20 reports in a minute; another client still reports', async () => {
    const client = '10.4.2.1';
    for (let i = 0; i < 20; i++) expect((await report({ keys: ['junk'] }, client)).statusCode).toBe(202);
    const refused = await report({ keys: ['junk'] }, client);
    expectProblem(refused, 429, 'too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await report({ keys: ['junk'] }, '10.4.2.2')).statusCode).toBe(202);
  });

  it('is described in the public OpenAPI document as reportLeakedKeys, without key security', async () => {
    type Operation = {
      operationId: string;
      responses: Record<string, unknown>;
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    const doc = json<{ paths: Record<string, { post: Operation }> }>(
      await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' }),
    );
    const operation = doc.paths['/api/v1/leaked-keys']!.post;
    expect(operation).toMatchObject({ operationId: 'reportLeakedKeys', summary: anyString(), security: [] });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining<string>(['202', '400', '429']));
    expect(operation.requestBody.content['application/json']!.schema.properties.keys).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 100,
    });
  });
});
