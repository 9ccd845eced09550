import { describe, expect, it } from 'vitest';
import { useFixture, useHarness } from '../../support/use.ts';
import { listening, person, ssoSignIn, startProvider, tenantWithSso } from '../../support/sso-kit.ts';

/** One browser, one session (ASVS 5.0 7.2.4): an SSO sign-in ends the session the browser held. */
describe('a single sign-on from a browser that holds a session', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      return { origin, provider: await startProvider(callback) };
    },
    ({ provider }) => provider.close(),
  );

  async function sessionOf(origin: string, token: string): Promise<number> {
    const response = await fetch(`${origin}/backoffice/api/session`, {
      headers: { cookie: `airkey_session=${token}` },
    });
    return response.status;
  }

  it('ends the held session once the new one is open, whoever signs in', async () => {
    const tenant = await tenantWithSso(h, env.provider);
    person(env.provider, 'sub-held');
    person(env.provider, 'sub-next');
    const first = await ssoSignIn(env.origin, tenant.start, 'sub-held');
    const held = first.browser.cookie(env.origin, 'airkey_session')!;
    expect(await sessionOf(env.origin, held)).toBe(200);

    const second = await ssoSignIn(env.origin, tenant.start, 'sub-next', { browser: first.browser });
    expect(second.location).toBe('/backoffice/settings/api-keys');
    const renewed = second.browser.cookie(env.origin, 'airkey_session')!;
    expect(renewed).not.toBe(held);
    expect(await sessionOf(env.origin, renewed)).toBe(200);
    expect(await sessionOf(env.origin, held)).toBe(401);
  });
});
