import { describe, expect, it } from 'vitest';
import { generateFlights } from '../../../src/flights/flight-seeder.ts';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import type { SignedIn } from '../../../src/sessions/session-schemas.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { bearerGet, bearerMcp, connectedApp, type ToolResult } from '../../support/oauth-resource-kit.ts';
import { entriesOf, listening } from '../../support/request-log-kit.ts';
import { useHarness } from '../../support/use.ts';

/** Access tokens on /mcp and /api/v1 (docs/oauth.md, the resource side), over real HTTP. */
describe('an access token on the protected resources', () => {
  const h = useHarness({ now: new Date(), app: { plugins: [mcpRoutes] } });

  /** A tenant with an administrator and a second System Administrator who approves apps, with flights. */
  async function tenantWithApprover() {
    const admin = await h.signedIn();
    const approver = await h.user(admin.tenantId, ['system_administrator']);
    await h.services.flights.seed(SYSTEM_ACTOR, generateFlights(admin.tenantId, 3, h.clock.now(), 7));
    const session = await h.signIn(approver.email);
    const { id, slug, name } = (await session.request('GET', '/backoffice/api/session')).json<SignedIn>().user.tenant;
    return { admin, approver: session, approverId: approver.id, tenant: { id, slug, name } };
  }

  it('calls list_flights on /mcp and answers whoami as the app acting for its person', async () => {
    const base = await listening(h);
    const { approver, tenant } = await tenantWithApprover();
    const { client, tokens } = await connectedApp(h, approver);
    const flights = await bearerMcp(base, tokens.access_token, 'tools/call', { name: 'list_flights', arguments: {} });
    expect(flights.status).toBe(200);
    const page = ((await flights.json()) as ToolResult<{ data: unknown[] }>).result;
    expect(page.isError ?? false).toBe(false);
    expect(page.structuredContent!.data).toHaveLength(3);
    const who = await bearerMcp(base, tokens.access_token, 'tools/call', { name: 'whoami', arguments: {} });
    expect(((await who.json()) as ToolResult<unknown>).result.structuredContent).toEqual({
      tenant,
      credential: 'oauth',
      app: { client_id: client.clientId, name: 'Resource test app' },
      acts_as: { type: 'user', id: approver.userId, email: approver.email },
      permissions: ['flights:read'],
    });
  });

  it('lists flights on /api/v1 with a token for the API, and whoami names the app', async () => {
    const base = await listening(h);
    const { approver, tenant } = await tenantWithApprover();
    const { client, tokens } = await connectedApp(h, approver, 'api');
    const flights = await bearerGet(base, '/api/v1/flights', tokens.access_token);
    expect(flights.status).toBe(200);
    expect(((await flights.json()) as { data: unknown[] }).data).toHaveLength(3);
    const who = await bearerGet(base, '/api/v1/whoami', tokens.access_token);
    expect(await who.json()).toEqual({
      tenant,
      credential: 'oauth',
      app: { client_id: client.clientId, name: 'Resource test app' },
      acts_as: { type: 'user', id: approver.userId, email: approver.email },
      permissions: ['flights:read'],
    });
  });

  it("refuses a token on the other resource with 401 invalid_token naming that resource's metadata", async () => {
    const base = await listening(h);
    const { approver } = await tenantWithApprover();
    const forMcp = (await connectedApp(h, approver, 'mcp')).tokens.access_token;
    const forApi = (await connectedApp(h, approver, 'api')).tokens.access_token;
    const onApi = await bearerGet(base, '/api/v1/flights', forMcp);
    expect(onApi.status).toBe(401);
    expect(await onApi.json()).toMatchObject({ code: 'invalid_token' });
    expect(onApi.headers.get('www-authenticate')).toBe(
      `Bearer realm="airkey", error="invalid_token", resource_metadata="${h.config.publicUrl}/.well-known/oauth-protected-resource/api/v1"`,
    );
    const onMcp = await bearerMcp(base, forApi, 'tools/call', { name: 'list_flights', arguments: {} });
    expect(onMcp.status).toBe(401);
    expect(await onMcp.json()).toMatchObject({ code: 'invalid_token' });
    expect(onMcp.headers.get('www-authenticate')).toContain(
      `resource_metadata="${h.config.publicUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('refuses a token sent in the query string', async () => {
    const base = await listening(h);
    const { approver } = await tenantWithApprover();
    const token = (await connectedApp(h, approver, 'api')).tokens.access_token;
    for (const query of [`access_token=${token}`, `api_key=${token}`]) {
      const response = await fetch(`${base}/api/v1/flights?${query}`);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
    }
  });

  it('refuses a token revoked at the revocation endpoint (RFC 7009) from its response on', async () => {
    const base = await listening(h);
    const { approver } = await tenantWithApprover();
    const { client, tokens } = await connectedApp(h, approver, 'api');
    expect((await bearerGet(base, '/api/v1/whoami', tokens.access_token)).status).toBe(200);
    const revoked = await client.post('/oauth/token/revocation', {
      client_id: client.clientId,
      token: tokens.access_token,
    });
    expect(revoked.statusCode).toBe(200);
    const after = await bearerGet(base, '/api/v1/whoami', tokens.access_token);
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'invalid_token' });
  });

  it('refuses the access token of a grant ended by a replayed refresh token', async () => {
    const base = await listening(h);
    const { approver } = await tenantWithApprover();
    const { client, tokens } = await connectedApp(h, approver, 'api');
    const rotated = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    const fresh = rotated.json<{ access_token: string }>().access_token;
    expect((await bearerGet(base, '/api/v1/whoami', fresh)).status).toBe(200);
    expect((await bearerGet(base, '/api/v1/whoami', tokens.access_token)).status).toBe(200);
    const replayed = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(replayed.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await bearerGet(base, '/api/v1/whoami', fresh)).status).toBe(401);
    expect((await bearerGet(base, '/api/v1/whoami', tokens.access_token)).status).toBe(401);
  });

  it("narrows at once when its person's role changes: 403 on the API, a tool error on MCP", async () => {
    const base = await listening(h);
    const { approver, approverId } = await tenantWithApprover();
    const api = (await connectedApp(h, approver, 'api')).tokens.access_token;
    const mcp = (await connectedApp(h, approver, 'mcp')).tokens.access_token;
    expect((await bearerGet(base, '/api/v1/flights', api)).status).toBe(200);
    await h.services.accounts.users.update(SYSTEM_ACTOR, approver.tenantId, approverId, { roles: ['crew'] });
    const refused = await bearerGet(base, '/api/v1/flights', api);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'permission_denied' });
    const call = await bearerMcp(base, mcp, 'tools/call', { name: 'list_flights', arguments: {} });
    const result = ((await call.json()) as ToolResult<unknown>).result;
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^permission_denied: This access token acts as /);
    expect(result.structuredContent).toBeUndefined();
  });

  it('refuses the tokens of a deleted person', async () => {
    const base = await listening(h);
    const { approver, approverId } = await tenantWithApprover();
    const { tokens } = await connectedApp(h, approver, 'api');
    expect((await bearerGet(base, '/api/v1/whoami', tokens.access_token)).status).toBe(200);
    await h.services.accounts.users.delete(SYSTEM_ACTOR, approver.tenantId, approverId);
    expect((await bearerGet(base, '/api/v1/whoami', tokens.access_token)).status).toBe(401);
  });

  it("keeps a token's requests in the request log as the grant, by app name, with credential oauth", async () => {
    const base = await listening(h);
    const { admin, approver } = await tenantWithApprover();
    const { tokens } = await connectedApp(h, approver, 'api');
    expect((await bearerGet(base, '/api/v1/flights', tokens.access_token)).status).toBe(200);
    const grantId = (await h.services.oauth.provider.AccessToken.find(tokens.access_token))!.grantId;
    const [entry] = await entriesOf(h, admin, grantId);
    expect(entry).toMatchObject({
      credential: 'oauth',
      key: { id: grantId, name: 'Resource test app', hint: null },
      route: '/api/v1/flights',
      outcome: 'ok',
    });
  });
});
