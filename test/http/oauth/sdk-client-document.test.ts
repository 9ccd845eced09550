import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../../support/databases.ts';
import { startDocumentServer, type DocumentServer } from '../../support/document-server.ts';
import { ADMIN, airkeyEnv, cli, signIn, startInstance, type Instance, type Session } from '../../support/instances.ts';
import { REDIRECT_URI } from '../../support/oauth-kit.ts';
import { approveOver, HostAuth, signInWithTotpOver } from '../../support/sdk-oauth-kit.ts';
import { totpCode } from '../../support/second-factors.ts';

const PASSWORD = 'a long password for the document test';
const DOCUMENT_PATH = '/clients/sdk-host.json';

/**
 * The MCP SDK's own OAuth client registering by Client ID Metadata Document (docs/oauth.md,
 * Clients) against a real `airkey serve` process: the document on https from a private CA the
 * process trusts through NODE_EXTRA_CA_CERTS, on 127.0.0.1 (OAUTH_ALLOW_PRIVATE=1).
 */
describe('the MCP SDK connecting by its client metadata document to airkey serve', () => {
  let docs: DocumentServer;
  let server: Instance;
  let admin: Session;
  let documentUrl: string;
  let seeded: number;
  let metadata: { client_id_metadata_document_supported?: boolean; registration_endpoint: string };

  beforeAll(async () => {
    docs = await startDocumentServer();
    documentUrl = `${docs.origin}${DOCUMENT_PATH}`;
    docs.documents.set(DOCUMENT_PATH, {
      body: {
        client_id: documentUrl,
        client_name: 'SDK host',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    });
    const dataDir = migratedDataDir();
    server = await startInstance('oauth-document', undefined, {
      DATA_DIR: dataDir,
      OAUTH_ALLOW_PRIVATE: '1',
      NODE_EXTRA_CA_CERTS: docs.caFile,
    });
    admin = await signIn(server, ADMIN.email);
    // Through the running server's admin socket, as an operator would.
    const printed = await cli(
      ['flights', 'seed', '--tenant', 'demo', '--count', '4', '--json'],
      airkeyEnv(undefined, { DATA_DIR: dataDir }),
    );
    seeded = (JSON.parse(printed) as { inserted: number }).inserted;
    const found = await fetch(`${server.url}/.well-known/oauth-authorization-server/oauth`);
    metadata = (await found.json()) as typeof metadata;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await docs?.close();
  });

  /** A System Administrator made in the back office, with an authenticator app enrolled: their next code. */
  async function personWithTotp(): Promise<{ email: string; code: string }> {
    const email = `p${Date.now()}${Math.floor(Math.random() * 1e6)}@demo.test`;
    const created = await admin.request(server, 'POST', '/backoffice/api/users', {
      email,
      name: 'Approver',
      password: PASSWORD,
      roles: ['system_administrator'],
    });
    expect(created.status).toBe(201);
    const session = await signIn(server, email, PASSWORD);
    const begun = await session.request<{ secret: string }>(server, 'POST', '/backoffice/api/me/totp');
    const confirmedAt = Date.now();
    const confirmed = await session.request(server, 'POST', '/backoffice/api/me/totp/confirm', {
      code: totpCode(begun.body.secret, confirmedAt),
    });
    expect(confirmed.status).toBe(200);
    // The confirming code's step counts as used; the next step's code is accepted as adjacent.
    return { email, code: totpCode(begun.body.secret, confirmedAt + 30_000) };
  }

  /** The SDK from its first 401 to tokens, a person signing in and approving in between. */
  async function authorized(mode: 'auto' | 'legacy') {
    const person = await personWithTotp();
    const asked: string[] = [];
    const recording: typeof fetch = (input, init) => {
      asked.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    const auth = new HostAuth(documentUrl);
    const mcpUrl = new URL(`${server.url}/mcp`);
    const transport = () => new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth, fetch: recording });
    const first = transport();
    const client = () => new Client({ name: 'sdk-host', version: '1.0.0' }, { versionNegotiation: { mode } });
    await expect(client().connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

    const session = await signInWithTotpOver(server.url, person.email, PASSWORD, person.code);
    const callback = await approveOver(session, auth.authorizationUrl!);
    expect(callback.searchParams.get('iss')).toBe(`${server.url}/oauth`);
    await first.finishAuth(callback.searchParams);
    const connected = client();
    await connected.connect(transport());
    return { auth, asked, client: connected };
  }

  describe.each([
    ['2026-07-28', 'auto'],
    ['2025-11-25', 'legacy'],
  ] as const)('in the %s era', (revision, mode) => {
    it('uses the document URL as its client_id, signs in with a second factor, gets consent and calls list_flights', async () => {
      expect(metadata.client_id_metadata_document_supported).toBe(true);
      const { auth, asked, client } = await authorized(mode);
      // No RFC 7591 registration: the document's URL is the client_id, and the server read the document.
      expect(auth.client?.client_id).toBe(documentUrl);
      expect(auth.authorizationUrl!.searchParams.get('client_id')).toBe(documentUrl);
      expect(asked).not.toContain(metadata.registration_endpoint);
      expect(docs.requested).toContain(DOCUMENT_PATH);
      expect(auth.saved?.refresh_token).toEqual(expect.any(String));

      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      const page = await client.callTool({ name: 'list_flights', arguments: {} });
      expect(page.isError ?? false).toBe(false);
      expect((page.structuredContent as { data: unknown[] }).data).toHaveLength(seeded);
      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({
        credential: 'oauth',
        app: { client_id: documentUrl, name: 'SDK host' },
      });
      await client.close();
    });
  });

  it('ends the grant when a used refresh token comes back: the replay and the current tokens refused', async () => {
    const { auth, client } = await authorized('auto');
    await client.close();
    const token = (form: Record<string, string>) =>
      fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: documentUrl, ...form }),
      });
    const used = auth.saved!.refresh_token!;
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: used });
    expect(rotated.status).toBe(200);
    const current = (await rotated.json()) as { access_token: string; refresh_token: string };
    const mcp = () =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${current.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await mcp()).status).toBe(200);

    const replayed = await token({ grant_type: 'refresh_token', refresh_token: used });
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await mcp()).status).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: current.refresh_token });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
