import { describe, expect, it } from 'vitest';
import type { SignedIn } from '../../src/sessions/session-schemas.ts';
import type { KeyList } from '../../src/keys/key-schemas.ts';
import type { Principal } from '../../src/shared/principal.ts';
import { generateFlights } from '../../src/flights/flight-seeder.ts';
import { mcpRoutes } from '../../src/mcp/mcp-routes.ts';
import { mcpCall } from '../support/mcp-inject.ts';
import { json, useHarness } from '../support/use.ts';
import { expectProblem } from '../support/problems.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';

/** What a key acts as (docs/roles.md), seen through the public API. */
describe('key authority over HTTP', () => {
  const h = useHarness({ app: { plugins: [mcpRoutes] } });

  /** A tenant with two System Administrators: one creates keys, the other manages the first. */
  async function tenantWithCreator(authority: 'creator' | 'system') {
    const admin = await h.signedIn(['system_administrator'], authority);
    const creatorUser = await h.user(admin.tenantId, ['system_administrator']);
    const creator = await h.signIn(creatorUser.email);
    const { secret, api_key } = await h.createKey(creator, { name: 'creator key' });
    return { admin, creator, secret, keyId: api_key.id };
  }

  describe('creator authority', () => {
    it('narrows the key on the next request when the creator loses flights:read, and widens it again', async () => {
      const { admin, creator, secret } = await tenantWithCreator('creator');
      expect((await h.api(secret, '/api/v1/flights')).statusCode).toBe(200);
      const whoami = json<Principal>(await h.api(secret, '/api/v1/whoami'));
      expect(whoami.acts_as).toEqual({ type: 'user', id: creator.userId, email: creator.email });
      expect(whoami.permissions).toEqual(['flights:read']);

      expect(
        (await admin.request('PATCH', `/backoffice/api/users/${creator.userId}`, { roles: ['crew'] })).statusCode,
      ).toBe(200);
      const denied = expectProblem(await h.api(secret, '/api/v1/flights'), 403, 'permission_denied');
      expect(denied.detail).toContain(creator.email);
      expectProblem(await h.api(secret, `/api/v1/flights/${crypto.randomUUID()}`), 403, 'permission_denied');
      const narrowed = await h.api(secret, '/api/v1/whoami');
      expect(narrowed.statusCode).toBe(200);
      expect(json<Principal>(narrowed).permissions).toEqual([]);

      await admin.request('PATCH', `/backoffice/api/users/${creator.userId}`, { roles: ['operations'] });
      expect((await h.api(secret, '/api/v1/flights')).statusCode).toBe(200);
    });

    it("disables the creator's keys when the creator is deleted: 401 api_key_disabled, and enabling is 409 creator_deleted", async () => {
      const { admin, creator, secret, keyId } = await tenantWithCreator('creator');
      const own = await h.createKey(admin, { name: 'admin key' });
      expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
      expect((await admin.request('DELETE', `/backoffice/api/users/${creator.userId}`)).statusCode).toBe(204);
      expectProblem(await h.api(secret, '/api/v1/whoami'), 401, 'api_key_disabled');
      expect((await h.api(own.secret, '/api/v1/whoami')).statusCode).toBe(200);
      const listed = json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data.find(
        (k) => k.id === keyId,
      );
      expect(listed).toMatchObject({
        enabled: false,
        status: 'disabled',
        disabled_reason: 'creator_deleted',
        created_by: null,
      });
      expectProblem(
        await admin.request('PATCH', `/backoffice/api/api-keys/${keyId}`, { enabled: true }),
        409,
        'creator_deleted',
      );
      expectProblem(await h.api(secret, '/api/v1/whoami'), 401, 'api_key_disabled');
      expectProblem(await creator.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    });
  });

  describe('system authority', () => {
    it('acts as the system with every API permission, whatever becomes of the creator', async () => {
      const { admin, creator, secret, keyId } = await tenantWithCreator('system');
      const whoami = json<Principal>(await h.api(secret, '/api/v1/whoami'));
      expect(whoami.acts_as).toEqual({ type: 'system' });
      expect(whoami.permissions).toContain('flights:read');
      expect(json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).authority).toBe('system');

      await admin.request('PATCH', `/backoffice/api/users/${creator.userId}`, { roles: ['crew'] });
      expect((await h.api(secret, '/api/v1/flights')).statusCode).toBe(200);

      expect((await admin.request('DELETE', `/backoffice/api/users/${creator.userId}`)).statusCode).toBe(204);
      expect((await h.api(secret, '/api/v1/flights')).statusCode).toBe(200);
      const listed = json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data.find(
        (k) => k.id === keyId,
      );
      expect(listed).toMatchObject({ enabled: true, status: 'enabled', created_by: null });
    });

    it('applies an authority change to cached keys on the next request', async () => {
      const { admin, creator, secret } = await tenantWithCreator('creator');
      await admin.request('PATCH', `/backoffice/api/users/${creator.userId}`, { roles: ['crew'] });
      expectProblem(await h.api(secret, '/api/v1/flights'), 403, 'permission_denied');
      const tenant = json<SignedIn>(await admin.request('GET', '/backoffice/api/session')).user.tenant;
      await h.services.accounts.tenants.setAuthority(SYSTEM_ACTOR, tenant.slug, 'system');
      expect((await h.api(secret, '/api/v1/flights')).statusCode).toBe(200);
      await h.services.accounts.tenants.setAuthority(SYSTEM_ACTOR, tenant.slug, 'creator');
      expectProblem(await h.api(secret, '/api/v1/flights'), 403, 'permission_denied');
    });

    it('serves MCP under system authority: whoami acts as system, list_flights works', async () => {
      const system = await h.signedIn(['system_administrator'], 'system');
      const { secret } = await h.createKey(system, { name: 'system agent' });
      await h.services.flights.seed(SYSTEM_ACTOR, generateFlights(system.tenantId, 3, h.clock.now(), 7));
      type ToolResult<T> = { result: { structuredContent: T; isError?: boolean } };
      const whoami = await mcpCall(h, secret, 'tools/call', { name: 'whoami', arguments: {} });
      expect(whoami.statusCode).toBe(200);
      const who = json<ToolResult<{ acts_as: unknown; tenant: { id: string } }>>(whoami).result;
      expect(who.isError ?? false).toBe(false);
      expect(who.structuredContent.acts_as).toEqual({ type: 'system' });
      expect(who.structuredContent.tenant.id).toBe(system.tenantId);
      const flights = await mcpCall(h, secret, 'tools/call', { name: 'list_flights', arguments: { limit: 10 } });
      expect(flights.statusCode).toBe(200);
      const page = json<ToolResult<{ data: unknown[] }>>(flights).result;
      expect(page.isError ?? false).toBe(false);
      expect(page.structuredContent.data).toHaveLength(3);
    });
  });
});
