import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/problems.ts';
import { useFixture, useHarness } from '../../support/use.ts';
import {
  asBrowser,
  expectRefused,
  lastSsoFailure,
  listening,
  ssoSignIn,
  startProvider,
  TestBrowser,
  useProvider,
} from '../../support/sso-kit.ts';

/** Two airlines, each with its own provider: neither provider signs anyone into the other airline. */
describe('two tenants with two providers', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      const [north, south] = await Promise.all([startProvider(callback), startProvider(callback)]);
      const tenants = [];
      for (const [provider, domain] of [
        [north, 'north.test'],
        [south, 'south.test'],
      ] as const) {
        const tenant = await h.tenant();
        const admin = await h.signIn((await h.user(tenant.id, ['system_administrator'], `admin@${domain}`)).email);
        await useProvider(admin, provider, {
          allowed_domains: [domain],
          create_users: true,
          default_roles: ['operations'],
        });
        tenants.push({ tenant, provider, domain });
      }
      return { origin, north: tenants[0]!, south: tenants[1]! };
    },
    async ({ north, south }) => {
      await Promise.all([north.provider.close(), south.provider.close()]);
    },
  );

  it('signs each provider’s people into their own tenant', async () => {
    const { north, south } = env;
    north.provider.accounts.set('n1', { sub: 'n1', email: 'pilot@north.test', email_verified: true });
    south.provider.accounts.set('s1', { sub: 's1', email: 'pilot@south.test', email_verified: true });
    const n = await ssoSignIn(env.origin, `/backoffice/sso/${north.tenant.slug}/start`, 'n1');
    const s = await ssoSignIn(env.origin, `/backoffice/api/sso/start?email=pilot@south.test`, 's1');
    expect((await asBrowser(env.origin, n.browser)).user).toMatchObject({ tenant: { id: north.tenant.id } });
    expect((await asBrowser(env.origin, s.browser)).user).toMatchObject({ tenant: { id: south.tenant.id } });
  });

  it('refuses a domain the other tenant allows (409), and a provider vouching for the other tenant’s user', async () => {
    const { north, south } = env;
    const southAdmin = await h.signIn('admin@south.test');
    const grab = await southAdmin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: {
        issuer: south.provider.issuer,
        client_id: south.provider.clientId,
        allowed_domains: ['south.test', 'north.test'],
      },
    });
    expectProblem(grab, 409, 'domain_taken');
    // North has a user at South's domain: South's provider vouching for that address signs nobody in.
    await h.user(north.tenant.id, ['operations'], 'contractor@south.test');
    south.provider.accounts.set('impostor', { sub: 'impostor', email: 'contractor@south.test', email_verified: true });
    const run = await ssoSignIn(env.origin, `/backoffice/sso/${south.tenant.slug}/start`, 'impostor');
    expectRefused(run, 'sso_user_other_organisation');
    expect((await lastSsoFailure(h, south.tenant.id))?.detail).toMatchObject({ reason: 'sso_user_other_organisation' });
  });

  it('refuses one tenant’s answer brought to a flow the other tenant started', async () => {
    const { north, south } = env;
    north.provider.accounts.set('n2', { sub: 'n2', email: 'crew@north.test', email_verified: true });
    const browser = new TestBrowser();
    // The browser starts at South, but the code it brings back came from North's provider.
    const atSouth = await browser.get(`${env.origin}/backoffice/sso/${south.tenant.slug}/start`);
    const southState = new URL(atSouth.headers.get('location')!).searchParams.get('state')!;
    const northRun = await ssoSignIn(env.origin, `/backoffice/sso/${north.tenant.slug}/start`, 'n2', {
      browser: new TestBrowser(),
      callbackBy: new TestBrowser(),
    });
    const swapped = new URL(northRun.callbackUrl);
    swapped.searchParams.set('state', southState);
    const response = await browser.get(swapped.href);
    expectRefused({ response, location: response.headers.get('location')! }, 'sso_issuer_mismatch');
    expect((await lastSsoFailure(h, south.tenant.id))?.detail).toMatchObject({ reason: 'sso_issuer_mismatch' });
  });
});
