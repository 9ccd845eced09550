import { describe, expect, it } from 'vitest';
import { useFixture, useHarness } from '../../support/use.ts';
import {
  asBrowser,
  freeDomains,
  listening,
  ssoSignIn,
  startProvider,
  useProvider,
  type TestProvider,
} from '../../support/sso-kit.ts';

const ROLE_RULES = {
  role_claim: 'groups',
  role_map: { 'airkey-admins': ['system_administrator'], 'ops-team': ['operations'], 'crew-team': ['crew'] },
  default_roles: ['crew'],
  create_users: true,
};

describe('single sign-on through the tenant’s own provider', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      return { origin, provider: await startProvider(callback) };
    },
    ({ provider }) => provider.close(),
  );

  async function tenantWithSso(provider: TestProvider, rules: Record<string, unknown> = ROLE_RULES) {
    await freeDomains(h, (rules.allowed_domains as string[] | undefined) ?? ['example.test']);
    const tenant = await h.tenant();
    const admin = await h.signIn((await h.user(tenant.id, ['system_administrator'])).email);
    await useProvider(admin, provider, rules);
    return { admin, slug: tenant.slug };
  }

  it('creates the user with the mapped roles, signs them in, and the key page works', async () => {
    const { slug } = await tenantWithSso(env.provider);
    env.provider.accounts.set('sub-ada', {
      sub: 'sub-ada',
      email: 'ada@example.test',
      email_verified: true,
      name: 'Ada',
      groups: ['airkey-admins', 'unrelated'],
    });
    const run = await ssoSignIn(
      env.origin,
      `/backoffice/api/sso/start?org=${slug}&next=/backoffice/settings/api-keys`,
      'sub-ada',
    );
    expect(run.location).toBe('/backoffice/settings/api-keys');
    expect(run.response.headers.get('cache-control')).toBe('no-store');
    const me = await asBrowser(env.origin, run.browser);
    expect(me.user).toMatchObject({ email: 'ada@example.test', roles: ['system_administrator'] });
    // The page re-authenticates such a session at the provider, never with a password.
    expect(me.signedInWith).toBe('sso');
    expect((await me.request('GET', '/backoffice/api/api-keys')).status).toBe(200);
    // Signed in just now: a sensitive action needs no re-authentication.
    expect((await me.request('POST', '/backoffice/api/api-keys', { name: 'from SSO' })).status).toBe(201);
  });

  it('links an existing user by verified e-mail, then finds them by issuer and sub', async () => {
    const { admin, slug } = await tenantWithSso(env.provider, { create_users: false });
    const grace = await h.user(admin.tenantId, ['operations'], 'grace@example.test');
    env.provider.accounts.set('sub-grace', { sub: 'sub-grace', email: 'grace@example.test', email_verified: true });
    const first = await ssoSignIn(env.origin, `/backoffice/sso/${slug}/start`, 'sub-grace');
    expect(first.location).toBe('/backoffice/settings/api-keys');
    expect((await asBrowser(env.origin, first.browser)).user).toMatchObject({
      email: grace.email,
      roles: ['operations'],
    });
    // The provider changes the e-mail: the link (issuer + sub) still finds her.
    env.provider.accounts.set('sub-grace', { sub: 'sub-grace', email: 'g.hopper@example.test', email_verified: true });
    const again = await ssoSignIn(env.origin, `/backoffice/sso/${slug}/start`, 'sub-grace');
    expect((await asBrowser(env.origin, again.browser)).user.email).toBe('grace@example.test');
  });

  it('finds the organisation from an e-mail whose domain it alone allows', async () => {
    const unique = `d${Math.random().toString(36).slice(2, 8)}.test`;
    await tenantWithSso(env.provider, { ...ROLE_RULES, allowed_domains: [unique] });
    env.provider.accounts.set('sub-lin', { sub: 'sub-lin', email: `lin@${unique}`, email_verified: true });
    const run = await ssoSignIn(env.origin, `/backoffice/api/sso/start?email=lin@${unique}`, 'sub-lin');
    expect((await asBrowser(env.origin, run.browser)).user).toMatchObject({ email: `lin@${unique}`, roles: ['crew'] });
  });

  it('updates roles from the claim at each sign-in: other sessions end, the user’s keys narrow at once', async () => {
    const { slug } = await tenantWithSso(env.provider);
    env.provider.accounts.set('sub-kat', {
      sub: 'sub-kat',
      email: 'katherine@example.test',
      email_verified: true,
      groups: ['airkey-admins'],
    });
    const first = await ssoSignIn(env.origin, `/backoffice/sso/${slug}/start`, 'sub-kat');
    const before = await asBrowser(env.origin, first.browser);
    expect(before.user.roles).toEqual(['system_administrator']);
    const created = (await (await before.request('POST', '/backoffice/api/api-keys', { name: 'k' })).json()) as {
      secret: string;
    };
    expect((await h.api(created.secret, '/api/v1/flights')).statusCode).toBe(200);
    env.provider.accounts.set('sub-kat', {
      sub: 'sub-kat',
      email: 'katherine@example.test',
      email_verified: true,
      groups: ['crew-team'],
    });
    const second = await ssoSignIn(env.origin, `/backoffice/sso/${slug}/start`, 'sub-kat');
    expect((await asBrowser(env.origin, second.browser)).user.roles).toEqual(['crew']);
    expect((await before.request('GET', '/backoffice/api/session')).status).toBe(401);
    // The key acts as its creator, with the creator's roles now.
    expect((await h.api(created.secret, '/api/v1/flights')).statusCode).toBe(403);
  });

  it('ignores a next that is not a path of this server', async () => {
    const { slug } = await tenantWithSso(env.provider);
    env.provider.accounts.set('sub-mae', { sub: 'sub-mae', email: 'mae@example.test', email_verified: true });
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const run = await ssoSignIn(
        env.origin,
        `/backoffice/sso/${slug}/start?next=${encodeURIComponent(next)}`,
        'sub-mae',
      );
      expect(run.location).toBe('/backoffice/settings/api-keys');
    }
  });

  it('re-authenticates through the provider with max_age=0, renewing the same session', async () => {
    const { slug } = await tenantWithSso(env.provider);
    env.provider.accounts.set('sub-rosa', { sub: 'sub-rosa', email: 'rosa@example.test', email_verified: true });
    const run = await ssoSignIn(env.origin, `/backoffice/sso/${slug}/start`, 'sub-rosa');
    const before = run.browser.cookie(env.origin, 'airkey_session');
    const started = await run.browser.get(
      `${env.origin}/backoffice/sso/${slug}/start?reauth=1&next=/backoffice/settings/users`,
    );
    const authorization = new URL(started.headers.get('location')!);
    expect(authorization.searchParams.get('max_age')).toBe('0');
    const callbackUrl = await run.browser.signInAtProvider(
      authorization.href,
      'sub-rosa',
      `${env.origin}/backoffice/sso/callback`,
    );
    const back = await run.browser.get(callbackUrl);
    expect(back.headers.get('location')).toBe('/backoffice/settings/users');
    const after = run.browser.cookie(env.origin, 'airkey_session');
    expect(after).not.toBe(before);
    const sessions = await (await asBrowser(env.origin, run.browser)).request('GET', '/backoffice/api/me/security');
    expect(((await sessions.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
  });
});
