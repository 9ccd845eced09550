import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFlights } from '../../../src/flights/flight-seeder.ts';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { freePort } from '../../support/free-port.ts';
import { createHarness, TEST_PASSWORD, type Harness } from '../../support/harness.ts';
import { enrolTotp } from '../../support/second-factors.ts';
import { approveInBrowser, HostAuth, signInWithTotp } from '../../support/sdk-oauth-kit.ts';

/**
 * The MCP SDK's own OAuth client against a real server (docs/oauth.md): discovery from the 401,
 * RFC 7591 registration, sign-in with a second factor, consent, token, tools/call, refresh.
 */
describe.each([
  ['2026-07-28', 'auto'],
  ['2025-11-25', 'legacy'],
] as const)('the MCP SDK connecting through OAuth (%s)', (revision, mode) => {
  let h: Harness;
  let mcpUrl: URL;

  beforeAll(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    h = await createHarness({ now: new Date(), config: { port, publicUrl }, app: { plugins: [mcpRoutes] } });
    await h.app.listen({ port, host: '127.0.0.1' });
    mcpUrl = new URL(`${publicUrl}/mcp`);
  });
  afterAll(() => h.close());

  const connect = async (auth: HostAuth) => {
    const client = new Client({ name: 'sdk-host', version: '1.0.0' }, { versionNegotiation: { mode } });
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    await client.connect(transport);
    return { client, transport };
  };

  it('discovers, registers, signs in with a second factor, gets consent and calls list_flights; then refreshes', async () => {
    const admin = await h.signedIn();
    const person = await h.user(admin.tenantId, ['system_administrator']);
    const { secret } = await enrolTotp(h, await h.signIn(person.email));
    await h.services.flights.seed(SYSTEM_ACTOR, generateFlights(admin.tenantId, 4, h.clock.now(), 7));

    // The 401 leads the SDK to the resource metadata, the issuer and registration, then to the browser.
    const auth = new HostAuth();
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    const first = new Client({ name: 'sdk-host', version: '1.0.0' }, { versionNegotiation: { mode } });
    // Registration (RFC 7591) happens on the way: a refusal there would be a RegistrationRejectedError.
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.client?.client_id).toEqual(expect.any(String));
    const sentTo = auth.authorizationUrl!;
    expect(`${sentTo.origin}${sentTo.pathname}`).toBe(`${h.config.publicUrl}/oauth/auth`);
    expect(sentTo.searchParams.get('resource')).toBe(mcpUrl.toString());
    expect(sentTo.searchParams.get('code_challenge_method')).toBe('S256');

    h.clock.advance(30_000);
    const session = await signInWithTotp(h, person.email, TEST_PASSWORD, secret);
    const callback = await approveInBrowser(h, session, sentTo);
    expect(callback.searchParams.get('iss')).toBe(`${h.config.publicUrl}/oauth`);
    await transport.finishAuth(callback.searchParams);
    expect(auth.saved?.refresh_token).toEqual(expect.any(String));

    const { client } = await connect(auth);
    expect(client.getNegotiatedProtocolVersion()).toBe(revision);
    const page = await client.callTool({ name: 'list_flights', arguments: {} });
    expect(page.isError ?? false).toBe(false);
    expect((page.structuredContent as { data: unknown[] }).data).toHaveLength(4);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ credential: 'oauth', app: { name: 'SDK host' } });

    // 16 minutes on, the access token is refused; the SDK refreshes on the 401 and carries on.
    const before = auth.saved!;
    h.clock.advance(16 * 60_000);
    const again = await client.callTool({ name: 'list_flights', arguments: {} });
    expect(again.isError ?? false).toBe(false);
    expect(auth.saved!.access_token).not.toBe(before.access_token);
    expect(auth.saved!.refresh_token).not.toBe(before.refresh_token);
    await client.close();
  });
});
