import { describe, expect, it } from 'vitest';
import { ENGINES } from '../../support/databases.ts';
import type { Session } from '../../support/harness.ts';
import { bearerGet, connectedApp } from '../../support/oauth-resource-kit.ts';
import { listening } from '../../support/request-log-kit.ts';
import { useHarness } from '../../support/use.ts';

type Grant = { id: string; app_name: string; last_used_at: string | null };

/**
 * A grant's last use (Connected apps' `last_used_at`) follows its access tokens' requests, written
 * behind as a key's last use is: in memory on the request, in the database at the next flush.
 */
describe.each(ENGINES)('a grant’s last use on %s', (engine) => {
  // No flush by the timer during a test: the test flushes when it means to.
  const h = useHarness({ engine, now: new Date(), config: { usageFlushMs: 600_000 } });

  const lastUsed = async (person: Session) => {
    const response = await person.request('GET', '/backoffice/api/oauth-grants');
    expect(response.statusCode, response.body).toBe(200);
    const grants = response.json<{ data: Grant[] }>().data;
    return Object.fromEntries(grants.map((grant) => [grant.id, grant.last_used_at]));
  };

  it('moves a used grant’s last_used_at after a flush, and leaves an unused one’s where it was', async () => {
    const base = await listening(h);
    const person = await h.signedIn();
    const used = await connectedApp(h, person, 'api');
    await connectedApp(h, person, 'api');
    const issued = await lastUsed(person);
    expect(Object.values(issued)).toHaveLength(2);

    h.clock.advance(90_000);
    const whoami = await bearerGet(base, '/api/v1/whoami', used.tokens.access_token);
    expect(whoami.status).toBe(200);
    // The request wrote nothing: the grant's last use waits for the flush.
    expect(await lastUsed(person)).toEqual(issued);

    await h.services.oauth.lastUse.flush();
    const after = await lastUsed(person);
    const moved = Object.keys(after).filter((id) => after[id] !== issued[id]);
    expect(moved).toHaveLength(1);
    expect(after[moved[0]!]).toBe(h.clock.now().toISOString());
    const unused = Object.keys(after).find((id) => id !== moved[0])!;
    expect(after[unused]).toBe(issued[unused]);
  });
});
