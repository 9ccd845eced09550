import { describe, expect, it } from 'vitest';
import { useFixture, useHarness } from '../../support/use.ts';
import { OAuthClient, pkce } from '../../support/oauth-kit.ts';
import { DOCUMENT_HOST, startDocumentServer } from '../../support/document-server.ts';

/**
 * Client ID Metadata Documents (docs/oauth.md, Clients): fetched over https from a server whose
 * certificate a private CA issued (trusted as NODE_EXTRA_CA_CERTS would), through the address guard.
 */
const server = () => useFixture(startDocumentServer, (documents) => documents.close());

function documentFor(url: string, extra: Record<string, unknown> = {}) {
  return { client_id: url, client_name: 'Document app', redirect_uris: ['https://app.example/callback'], ...extra };
}

async function authorizeAs(client: OAuthClient) {
  return client.authorize({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
}

describe('a client known by its metadata document (OAUTH_ALLOW_PRIVATE=1)', () => {
  const h = useHarness({ now: new Date(), config: { oauthAllowPrivate: true } });
  const docs = server();

  function clientAt(path: string, document: unknown, headers?: Record<string, string>): OAuthClient {
    docs.documents.set(path, { body: document, headers });
    const client = new OAuthClient(h, 'https://app.example/callback');
    client.clientId = `${docs.origin}${path}`;
    return client;
  }

  it('completes the flow, the consent page naming the app and warning of the other host', async () => {
    const client = clientAt('/good', documentFor(`${docs.origin}/good`));
    const { verifier, challenge } = pkce();
    const started = await client.authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect(started.statusCode, started.body).toBe(303);
    const uid = /\/backoffice\/oauth\/([^/?]+)/.exec(started.headers.location!)![1]!;
    const admin = await h.signedIn();
    const view = await client.asPerson(admin, 'GET', `/backoffice/api/oauth/interactions/${uid}`);
    expect(view.json()).toMatchObject({
      app: { client_id: client.clientId, name: 'Document app', by_document: true },
      redirect_host: 'app.example',
      warnings: ['redirect_host_differs'],
    });
    const answered = await client.asPerson(admin, 'POST', `/backoffice/api/oauth/interactions/${uid}/approve`);
    const back = new URL((await client.browse(answered.json<{ redirect_to: string }>().redirect_to)).headers.location!);
    const tokens = await client.token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
  });

  it('refuses a document whose client_id is not its own URL', async () => {
    const client = clientAt('/mismatch', documentFor('https://someone-else.example/client'));
    const response = await authorizeAs(client);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('refuses a document over 5 KB', async () => {
    const client = clientAt('/big', documentFor(`${docs.origin}/big`, { padding: 'x'.repeat(5 * 1024) }));
    const response = await authorizeAs(client);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a document that does not name the app', async () => {
    const client = clientAt('/nameless', documentFor(`${docs.origin}/nameless`, { client_name: undefined }));
    const response = await authorizeAs(client);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
    expect(docs.requested).not.toContain('/guarded');
  });
});

describe('the address guard on client documents (OAUTH_ALLOW_PRIVATE unset)', () => {
  const h = useHarness({
    now: new Date(),
    overrides: { oauthResolver: (name) => Promise.resolve(name === DOCUMENT_HOST ? ['127.0.0.1'] : []) },
  });
  const docs = server();

  it.each([
    ['a loopback address', () => `${docs.origin}/guarded`],
    ['a name that resolves to a loopback address', () => `https://${DOCUMENT_HOST}:${docs.port}/guarded`],
  ])('refuses a document at %s, never fetching it', async (_what, url) => {
    docs.documents.set('/guarded', { body: documentFor(url()) });
    const client = new OAuthClient(h, 'https://app.example/callback');
    client.clientId = url();
    const response = await authorizeAs(client);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
    expect(docs.requested).not.toContain('/guarded');
  });
});
