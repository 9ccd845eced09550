import { describe, expect, it } from 'vitest';
import type { SignedIn } from '../../src/sessions/session-schemas.ts';
import type { KeyList } from '../../src/keys/key-schemas.ts';
import type { FlightPage } from '../../src/flights/flight-schemas.ts';
import { json, useHarness } from '../support/use.ts';
import { generateFlights } from '../../src/flights/flight-seeder.ts';
import { type KeyVia } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';

describe('tenant isolation and immediate revocation', () => {
  const h = useHarness();

  it("answers another tenant's key id with 404 on PATCH and DELETE, and leaves that key alone", async () => {
    const a = await h.signedIn();
    const b = await h.signedIn();
    const { api_key, secret } = await h.createKey(b);
    expectProblem(
      await a.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false }),
      404,
      'not_found',
    );
    expectProblem(await a.request('DELETE', `/backoffice/api/api-keys/${api_key.id}`), 404, 'not_found');
    expect(json<KeyList>(await a.request('GET', '/backoffice/api/api-keys')).data).toEqual([]);
    expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
    expect(json<KeyList>(await b.request('GET', '/backoffice/api/api-keys')).data).toEqual([
      expect.objectContaining({ id: api_key.id, enabled: true }),
    ]);
  });

  it("never shows another tenant's flights, by list or by id", async () => {
    const a = await h.signedIn();
    const b = await h.signedIn();
    await h.services.flights.seed(SYSTEM_ACTOR, generateFlights(a.tenantId, 20, h.clock.now(), 1));
    await h.services.flights.seed(SYSTEM_ACTOR, generateFlights(b.tenantId, 20, h.clock.now(), 2));
    const keyA = (await h.createKey(a)).secret;
    const keyB = (await h.createKey(b)).secret;
    const flightsA = json<FlightPage>(await h.api(keyA, '/api/v1/flights?limit=500')).data as Array<{ id: string }>;
    const flightsB = json<FlightPage>(await h.api(keyB, '/api/v1/flights?limit=500')).data as Array<{ id: string }>;
    expect(flightsA).toHaveLength(20);
    expect(flightsB).toHaveLength(20);
    const idsA = new Set(flightsA.map((f) => f.id));
    expect(flightsB.filter((f) => idsA.has(f.id))).toEqual([]);
    expect((await h.api(keyA, `/api/v1/flights/${flightsA[0]!.id}`)).statusCode).toBe(200);
    expectProblem(await h.api(keyA, `/api/v1/flights/${flightsB[0]!.id}`), 404, 'not_found');
  });

  it("answers another tenant's user id with 404", async () => {
    const a = await h.signedIn();
    const b = await h.signedIn();
    expectProblem(await a.request('PATCH', `/backoffice/api/users/${b.userId}`, { roles: ['crew'] }), 404, 'not_found');
    expectProblem(await a.request('DELETE', `/backoffice/api/users/${b.userId}`), 404, 'not_found');
    expect(json<SignedIn>(await b.request('GET', '/backoffice/api/session')).user.roles).toEqual([
      'system_administrator',
    ]);
  });

  describe.each<KeyVia>(['header', 'bearer', 'query'])('a key sent by %s', (via) => {
    it('is rejected on the very next request after it is disabled, and accepted right after it is enabled', async () => {
      const admin = await h.signedIn();
      const { api_key, secret } = await h.createKey(admin);
      expect((await h.api(secret, '/api/v1/whoami', via)).statusCode).toBe(200);
      expect((await h.api(secret, '/api/v1/whoami', via)).statusCode).toBe(200);
      const disabled = await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false });
      expect(disabled.json()).toMatchObject({
        enabled: false,
        status: 'disabled',
        disabled_reason: 'disabled_by_user',
      });
      expectProblem(await h.api(secret, '/api/v1/whoami', via), 401, 'api_key_disabled');
      const enabled = await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: true });
      expect(enabled.json()).toMatchObject({ enabled: true, status: 'enabled', disabled_reason: null });
      expect((await h.api(secret, '/api/v1/whoami', via)).statusCode).toBe(200);
    });

    it('is rejected as invalid on the very next request after it is deleted', async () => {
      const admin = await h.signedIn();
      const { api_key, secret } = await h.createKey(admin);
      expect((await h.api(secret, '/api/v1/flights', via)).statusCode).toBe(200);
      expect((await admin.request('DELETE', `/backoffice/api/api-keys/${api_key.id}`)).statusCode).toBe(204);
      expectProblem(await h.api(secret, '/api/v1/flights', via), 401, 'api_key_invalid');
      expect(json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data).toEqual([]);
      expectProblem(await admin.request('DELETE', `/backoffice/api/api-keys/${api_key.id}`), 404, 'not_found');
    });
  });
});
