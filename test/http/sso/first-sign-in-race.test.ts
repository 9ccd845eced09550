import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../../src/db/schema.ts';
import { ENGINES } from '../../support/databases.ts';
import { useFixture, useHarness } from '../../support/use.ts';
import {
  asBrowser,
  listening,
  person,
  ssoSignIn,
  startProvider,
  TestBrowser,
  tenantWithSso,
} from '../../support/sso-kit.ts';

/** Two tabs, one new person: both come back from the provider at once. */
describe.each(ENGINES)('two first sign-ins of one new person at once (%s)', (engine) => {
  const h = useHarness({ engine, config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      return { origin, provider: await startProvider(callback) };
    },
    ({ provider }) => provider.close(),
  );

  it('creates one user and signs both in', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.provider);
    for (let round = 0; round < 8; round += 1) {
      const sub = `twin-${engine}-${round}`;
      person(env.provider, sub);
      // Both flows up to the provider's answer, then both callbacks sent together.
      const browsers = [new TestBrowser(), new TestBrowser()];
      const answers = await Promise.all(
        browsers.map(async (browser) => {
          const started = await browser.get(`${env.origin}${start}`);
          return browser.signInAtProvider(
            started.headers.get('location')!,
            sub,
            `${env.origin}/backoffice/sso/callback`,
          );
        }),
      );
      const landed = await Promise.all(browsers.map((browser, i) => browser.get(answers[i]!)));
      expect(landed.map((response) => [response.status, response.headers.get('location')])).toEqual([
        [302, '/backoffice/settings/api-keys'],
        [302, '/backoffice/settings/api-keys'],
      ]);
      const created = await h.services.database.db
        .select()
        .from(users)
        .where(and(eq(users.tenantId, tenantId), eq(users.email, `${sub}@example.test`)));
      expect(created).toHaveLength(1);
      for (const browser of browsers) {
        expect((await asBrowser(env.origin, browser)).user.email).toBe(`${sub}@example.test`);
      }
    }
  });

  it('still signs the person in afterwards, as the one user', async () => {
    const { start } = await tenantWithSso(h, env.provider);
    person(env.provider, `later-${engine}`);
    const run = await ssoSignIn(env.origin, start, `later-${engine}`);
    expect(run.location).toBe('/backoffice/settings/api-keys');
  });
});
