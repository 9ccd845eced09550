import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { generateFlights } from '../../../src/flights/flight-seeder.ts';
import { buildApp } from '../../../src/http/app.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { connectedApp } from '../../support/oauth-resource-kit.ts';

/**
 * Two instances on one PostgreSQL: whatever ends or narrows a grant on A holds on B from A's
 * response on, with B's cache warm (docs/oauth.md (Revocation): the change feed's acknowledgements).
 */
describe('an access token seen from a second instance (postgres)', () => {
  let a: Harness;
  let b: ServiceRoot;
  let bApp: FastifyInstance;

  beforeAll(async () => {
    a = await createHarness({ engine: 'postgres', now: new Date() });
    b = await createServices(a.config, { clock: a.clock });
    await b.start();
    bApp = await buildApp(b);
    await bApp.ready();
  });
  afterAll(async () => {
    await bApp.close();
    await b.close();
    await a.close();
  });

  const onB = (token: string, path = '/api/v1/whoami') =>
    bApp.inject({ url: path, headers: { authorization: `Bearer ${token}` } });

  async function approver() {
    const admin = await a.signedIn();
    const person = await a.user(admin.tenantId, ['system_administrator']);
    await a.services.flights.seed(SYSTEM_ACTOR, generateFlights(admin.tenantId, 2, a.clock.now(), 7));
    return { session: await a.signIn(person.email), id: person.id };
  }

  it('refuses on B a token whose grant A revoked (RFC 7009), on the next request', async () => {
    const { session } = await approver();
    const { client, tokens } = await connectedApp(a, session, 'api');
    expect((await onB(tokens.access_token)).statusCode).toBe(200);
    const revoked = await client.post('/oauth/token/revocation', {
      client_id: client.clientId,
      token: tokens.refresh_token,
    });
    expect(revoked.statusCode).toBe(200);
    const refused = await onB(tokens.access_token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'invalid_token' });
  });

  it('refuses on B the tokens of a grant A ended for a replayed refresh token', async () => {
    const { session } = await approver();
    const { client, tokens } = await connectedApp(a, session, 'api');
    const rotated = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    const fresh = rotated.json<{ access_token: string }>().access_token;
    expect((await onB(fresh)).statusCode).toBe(200);
    await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect((await onB(fresh)).statusCode).toBe(401);
  });

  it("narrows on B at once when A changes the person's roles, and refuses once A deletes them", async () => {
    const { session, id } = await approver();
    const { tokens } = await connectedApp(a, session, 'api');
    expect((await onB(tokens.access_token, '/api/v1/flights')).statusCode).toBe(200);
    await a.services.accounts.users.update(SYSTEM_ACTOR, session.tenantId, id, { roles: ['crew'] });
    const narrowed = await onB(tokens.access_token, '/api/v1/flights');
    expect(narrowed.statusCode).toBe(403);
    expect(narrowed.json()).toMatchObject({ code: 'permission_denied' });
    await a.services.accounts.users.delete(SYSTEM_ACTOR, session.tenantId, id);
    expect((await onB(tokens.access_token)).statusCode).toBe(401);
  });
});
