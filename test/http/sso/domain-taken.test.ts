import { describe, expect, it } from 'vitest';
import { ENGINES } from '../../support/databases.ts';
import { expectProblem } from '../../support/problems.ts';
import { useFixture, useHarness } from '../../support/use.ts';
import { listening, person, ssoSignIn, startProvider, TestBrowser, tenantWithSso } from '../../support/sso-kit.ts';

/** One tenant's provider cannot take another tenant's people: a domain is in one tenant's list at most. */
describe.each(ENGINES)('an e-mail domain in two tenants’ single sign-on (%s)', (engine) => {
  const h = useHarness({ engine, config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      const [first, second] = await Promise.all([startProvider(callback), startProvider(callback)]);
      return { origin, first, second };
    },
    async ({ first, second }) => {
      await Promise.all([first.close(), second.close()]);
    },
  );
  const settings = (provider: { issuer: string; clientId: string; clientSecret: string }, domains: string[]) => ({
    sso: {
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      allowed_domains: domains,
      create_users: true,
    },
  });

  it('refuses a domain another tenant lists with 409 domain_taken, and the holder keeps its people', async () => {
    const holder = await tenantWithSso(h, env.first, { allowed_domains: ['fjord.test'], create_users: true });
    const other = await tenantWithSso(h, env.second, { allowed_domains: ['other.test'], create_users: true });
    const grab = await other.admin.request(
      'PATCH',
      '/backoffice/api/sign-in-settings',
      settings(env.second, ['other.test', 'Fjord.test']),
    );
    const problem = expectProblem(grab, 409, 'domain_taken');
    expect(problem.detail).toContain('fjord.test');
    // Nothing of the refused change was kept.
    const read = await other.admin.request('GET', '/backoffice/api/sign-in-settings');
    expect(read.json()).toMatchObject({ sso: { allowed_domains: ['other.test'] } });
    // An e-mail at the domain still finds its one tenant, and signs in there.
    person(env.first, 'sub-frey', { email: 'frey@fjord.test' });
    const run = await ssoSignIn(env.origin, '/backoffice/api/sso/start?email=frey@fjord.test', 'sub-frey');
    expect(run.location).toBe('/backoffice/settings/api-keys');
    const landed: unknown = await (await run.browser.get(`${env.origin}/backoffice/api/session`)).json();
    expect(landed).toMatchObject({ user: { email: 'frey@fjord.test', tenant: { id: holder.tenantId } } });
  });

  it('lets two tenants saving the same new domain at once not both win', async () => {
    const a = await tenantWithSso(h, env.first, { allowed_domains: ['a.test'], create_users: true });
    const b = await tenantWithSso(h, env.second, { allowed_domains: ['b.test'], create_users: true });
    for (let round = 0; round < 5; round += 1) {
      const domain = `race-${round}.test`;
      const answers = await Promise.all([
        a.admin.request('PATCH', '/backoffice/api/sign-in-settings', settings(env.first, ['a.test', domain])),
        b.admin.request('PATCH', '/backoffice/api/sign-in-settings', settings(env.second, ['b.test', domain])),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const lists = await Promise.all(
        [a, b].map(async (t) =>
          (await t.admin.request('GET', '/backoffice/api/sign-in-settings')).json<{
            sso: { allowed_domains: string[] };
          }>(),
        ),
      );
      expect(lists.filter((list) => list.sso.allowed_domains.includes(domain))).toHaveLength(1);
    }
  });

  it('frees a domain when its tenant stops listing it or removes single sign-on', async () => {
    const first = await tenantWithSso(h, env.first, { allowed_domains: ['free.test'], create_users: true });
    const second = await tenantWithSso(h, env.second, { allowed_domains: ['second.test'], create_users: true });
    expect((await first.admin.request('PATCH', '/backoffice/api/sign-in-settings', { sso: null })).statusCode).toBe(
      200,
    );
    const taken = await second.admin.request(
      'PATCH',
      '/backoffice/api/sign-in-settings',
      settings(env.second, ['second.test', 'free.test']),
    );
    expect(taken.statusCode, taken.body).toBe(200);
    const start = await new TestBrowser().get(`${env.origin}/backoffice/api/sso/start?email=x@free.test`);
    expect(new URL(start.headers.get('location')!).origin).toBe(new URL(env.second.issuer).origin);
  });
});
