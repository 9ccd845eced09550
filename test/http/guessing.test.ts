import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use.ts';
import { TEST_PASSWORD } from '../support/harness.ts';
import { apiFrom, expectProblem, unknownKey } from '../support/problems.ts';

/**
 * Guessing: guesses are throttled per client, but never so that one account's typos
 * lock out another account, or a client's valid key, behind the same address.
 */
describe('guessing', () => {
  const h = useHarness();

  const signIn = (email: string, password: string, client: string) =>
    h.app.inject({
      method: 'POST',
      url: '/backoffice/api/session',
      payload: { email, password },
      remoteAddress: client,
    });

  /** Wrong passwords until 429; the exact boundary is pinned elsewhere, here only "a few, then blocked". */
  async function guessUntilBlocked(email: string, client: string) {
    const statuses: number[] = [];
    for (let i = 0; i < 10 && statuses.at(-1) !== 429; i++)
      statuses.push((await signIn(email, `wrong password ${i}`, client)).statusCode);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
  }

  it("signs in a colleague with the right password from a client that another account's guesses throttled", async () => {
    const tenant = await h.tenant();
    const typist = await h.user(tenant.id, ['operations']);
    const colleague = await h.user(tenant.id, ['operations']);
    const office = '10.11.0.1';
    await guessUntilBlocked(typist.email, office);
    expectProblem(await signIn(typist.email, TEST_PASSWORD, office), 429, 'too_many_requests');

    const colleagueIn = await signIn(colleague.email, TEST_PASSWORD, office);
    expect(colleagueIn.statusCode).toBe(200);
    expect(colleagueIn.cookies.map((c) => c.name)).toContain('airkey_session');
    // And the typist, from another client, is not blocked either.
    expect((await signIn(typist.email, TEST_PASSWORD, '10.11.0.2')).statusCode).toBe(200);
  });

  it('still throttles one account guessed from one client, with a wrong or right password', async () => {
    const tenant = await h.tenant();
    const target = await h.user(tenant.id, ['operations']);
    await guessUntilBlocked(target.email, '10.11.1.1');
    const blocked = await signIn(target.email, TEST_PASSWORD, '10.11.1.1');
    expectProblem(blocked, 429, 'too_many_requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.cookies).toEqual([]);
  });

  it('lets a valid key through from a client whose key guesses are throttled', async () => {
    const session = await h.signedIn();
    const { secret } = await h.createKey(session);
    const guesser = '10.11.2.1';
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push(
        (await apiFrom(h, guesser, unknownKey(String.fromCharCode(65 + (i % 26))), '/api/v1/whoami')).statusCode,
      );
    // 20 bad keys a minute are answered 401; after that the client is throttled.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expectProblem(await apiFrom(h, guesser, unknownKey('Q'), '/api/v1/whoami'), 429, 'too_many_requests');

    // The valid key, never used before (so not cached), passes from the throttled client.
    const ok = await apiFrom(h, guesser, secret, '/api/v1/whoami', 'bearer');
    expect(ok.statusCode).toBe(200);
    expect((await apiFrom(h, guesser, secret, '/api/v1/flights', 'query')).statusCode).toBe(200);
    // Another client is not affected by the guesser at all.
    expectProblem(await apiFrom(h, '10.11.2.2', unknownKey('R'), '/api/v1/whoami'), 401, 'api_key_invalid');
  });
});
