import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { buildApp } from '../../../src/http/app.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { ManualClock } from '../../support/manual-clock.ts';
import { createKeyWithLimit, rateLimitFieldsOf } from '../../support/rate-limit-kit.ts';

const START = '2026-11-22T12:00:10Z';

/**
 * Two instances on one PostgreSQL, sharing the count in rate_limit_windows: a limit lowered on A
 * holds on B from A's response on (the change feed's acknowledgements, docs/keys.md (Revocation)), without waiting.
 */
describe('a changed rate limit, seen from a second instance (postgres)', () => {
  let a: Harness;
  let b: ServiceRoot;
  let bApp: FastifyInstance;
  const bClock = new ManualClock(START);

  beforeAll(async () => {
    a = await createHarness({ engine: 'postgres', now: START });
    b = await createServices(a.config, { clock: bClock });
    await b.start();
    bApp = await buildApp(b);
    await bApp.ready();
  });
  afterAll(async () => {
    await bApp.close();
    await b.close();
    await a.close();
  });

  const onA = (secret: string) => a.api(secret, '/api/v1/whoami');
  const onB = (secret: string) => bApp.inject({ url: '/api/v1/whoami', headers: { 'x-api-key': secret } });

  it('refuses on both instances from the response that lowers the limit, and accepts again once it is raised', async () => {
    const admin = await a.signedIn();
    const { api_key, secret } = await createKeyWithLimit(admin, { requests: 10, window: '1m' });
    for (let i = 0; i < 3; i++) expect((await onB(secret)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await onA(secret)).statusCode).toBe(200);
    const url = `/backoffice/api/api-keys/${api_key.id}`;
    const lowered = await admin.request('PATCH', url, { rate_limit: { requests: 4, window: '1m' } });
    expect(lowered.statusCode).toBe(200);
    // Five were accepted in this window already: none more, on either instance, from here on.
    for (const response of [await onB(secret), await onA(secret), await onB(secret)]) {
      expect(response.statusCode).toBe(429);
      expect(rateLimitFieldsOf(response.headers)?.policy).toEqual({ name: 'key', q: 4, w: 60 });
    }
    expect((await admin.request('PATCH', url, { rate_limit: { requests: 1000, window: '1m' } })).statusCode).toBe(200);
    const [onBAgain, onAAgain] = [await onB(secret), await onA(secret)];
    expect([onBAgain.statusCode, onAAgain.statusCode]).toEqual([200, 200]);
    expect(rateLimitFieldsOf(onBAgain.headers)?.policy).toEqual({ name: 'key', q: 1000, w: 60 });
  });

  it('stops limiting on both instances once the limit is removed', async () => {
    const admin = await a.signedIn();
    const { api_key, secret } = await createKeyWithLimit(admin, { requests: 1, window: '1h' });
    expect([(await onB(secret)).statusCode, (await onA(secret)).statusCode]).toEqual([200, 429]);
    await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { rate_limit: null });
    const [fromB, fromA] = [await onB(secret), await onA(secret)];
    expect([fromB.statusCode, fromA.statusCode]).toEqual([200, 200]);
    expect([rateLimitFieldsOf(fromB.headers), rateLimitFieldsOf(fromA.headers)]).toEqual([null, null]);
  });
});
