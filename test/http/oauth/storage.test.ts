import { isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthRecords } from '../../../src/db/oauth-tables.ts';
import { ENGINES } from '../../support/databases.ts';
import { useHarness } from '../../support/use.ts';
import { OAuthClient, approvedTokens } from '../../support/oauth-kit.ts';

/** The provider's records on each engine, and the sweep that clears the expired ones (docs/oauth.md). */
describe.each(ENGINES)('OAuth records on %s', (engine) => {
  const h = useHarness({ engine, now: new Date() });

  it('keeps a grant usable across the flow, and the sweep removes what expired', async () => {
    const client = new OAuthClient(h);
    await client.register();
    const tokens = await approvedTokens(client, await h.signedIn());
    expect(tokens.access_token).toEqual(expect.any(String));
    const db = h.services.database.db;
    const expiring = await db.select().from(oauthRecords).where(isNotNull(oauthRecords.expiresAt));
    expect(expiring.length).toBeGreaterThan(0);
    h.clock.advance(31 * 86_400_000);
    expect(await h.services.oauth.deleteExpired()).toBeGreaterThanOrEqual(expiring.length);
    const left = await db.select().from(oauthRecords);
    // Everything went: tokens and codes by their own time, the grant 30 days after its last use, and
    // the registered client (with its registration token) 30 days after its last token.
    expect(left.map((row) => row.kind)).toEqual([]);
  });
});
