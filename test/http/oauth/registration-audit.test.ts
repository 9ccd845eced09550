import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../../src/db/schema.ts';
import { startDocumentServer } from '../../support/document-server.ts';
import type { Harness, Session } from '../../support/harness.ts';
import { OAuthClient, approvedTokens, pkce } from '../../support/oauth-kit.ts';
import { useFixture, useHarness } from '../../support/use.ts';

type Event = { action: string; actor: { type: string }; target: { id: string; name: string }; detail: object };

/** The tenant's trail (GET /backoffice/api/audit-events), oldest first, about one app. */
async function trailOf(person: Session, clientId: string): Promise<Event[]> {
  const response = await person.request('GET', '/backoffice/api/audit-events');
  expect(response.statusCode, response.body).toBe(200);
  return response
    .json<{ data: Event[] }>()
    .data.filter((event) => event.target.id === clientId)
    .reverse();
}

const rowsAbout = (h: Harness, clientId: string) =>
  h.services.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, clientId));

/**
 * `oauth.client_registered` (docs/oauth.md, Audit): a registration belongs to no tenant when it
 * happens, so it is logged for operators then and enters a tenant's trail at the first approval
 * by one of its people, with when the app registered.
 */
describe('a registered app in the trail of the tenants that approve it', () => {
  const h = useHarness({ now: new Date() });

  it('stores no event without a tenant, and records the registration at a tenant’s first approval', async () => {
    const client = new OAuthClient(h);
    const registered = await client.register({ client_name: 'Registered app' });
    const issuedAt = registered.json<{ client_id_issued_at: number }>().client_id_issued_at;
    expect(await rowsAbout(h, client.clientId)).toEqual([]);

    const person = await h.signedIn();
    await approvedTokens(client, person);
    await approvedTokens(client, person);
    const trail = await trailOf(person, client.clientId);
    expect(trail.map((event) => event.action)).toEqual([
      'oauth.client_registered',
      'oauth.app_approved',
      'oauth.app_approved',
    ]);
    expect(trail[0]).toMatchObject({
      actor: { type: 'system' },
      target: { name: 'Registered app' },
      detail: { registered_at: new Date(issuedAt * 1000).toISOString(), by_document: false },
    });
  });

  it('records it once in each tenant whose people approve the app', async () => {
    const client = new OAuthClient(h);
    await client.register();
    const first = await h.signedIn();
    const second = await h.signedIn();
    await approvedTokens(client, first);
    // The second tenant's person, in a browser of their own.
    const elsewhere = new OAuthClient(h);
    elsewhere.clientId = client.clientId;
    await approvedTokens(elsewhere, second);
    for (const person of [first, second]) {
      const actions = (await trailOf(person, client.clientId)).map((event) => event.action);
      expect(actions.filter((action) => action === 'oauth.client_registered')).toHaveLength(1);
    }
    expect(await rowsAbout(h, client.clientId)).toHaveLength(4);
  });
});

describe('an app known by its metadata document in the trail (OAUTH_ALLOW_PRIVATE=1)', () => {
  const h = useHarness({ now: new Date(), config: { oauthAllowPrivate: true } });
  const docs = useFixture(startDocumentServer, (server) => server.close());

  it('records the document’s app at the first approval, as a document with no registration time', async () => {
    const clientId = `${docs.origin}/app`;
    docs.documents.set('/app', {
      body: { client_id: clientId, client_name: 'Document app', redirect_uris: ['https://app.example/callback'] },
    });
    const client = new OAuthClient(h, 'https://app.example/callback');
    client.clientId = clientId;
    const person = await h.signedIn();
    const back = await client.consent(person, 'approve', {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    const [registered] = await trailOf(person, clientId);
    expect(registered).toMatchObject({
      action: 'oauth.client_registered',
      target: { name: 'Document app' },
      detail: { registered_at: null, by_document: true },
    });
  });
});
