import { describe, expect, it } from 'vitest';
import { useFixture, useHarness } from '../../support/use.ts';
import {
  expectAudited,
  expectRefused,
  listening,
  person,
  ssoSignIn,
  startProvider,
  tenantWithSso,
  freeDomains,
  TestBrowser,
  useProvider,
} from '../../support/sso-kit.ts';

/**
 * Refusals about who signs in and where (docs/sso.md, the refusal table), over real HTTP against a
 * real provider: back to the sign-in page with the reason, an audit entry, and nobody signed in.
 */
describe('single sign-on refuses the wrong person, organisation or input', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      const [main, other] = await Promise.all([startProvider(callback), startProvider(callback)]);
      return { origin, main, other };
    },
    async ({ main, other }) => {
      await Promise.all([main.close(), other.close()]);
    },
  );

  it('an e-mail the provider has not verified', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.main);
    person(env.main, 'unverified', { email_verified: false });
    expectRefused(await ssoSignIn(env.origin, start, 'unverified'), 'sso_email_unverified');
    await expectAudited(h, tenantId, 'sso_email_unverified');
  });

  it('an e-mail outside the allowed domains', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.main);
    person(env.main, 'outsider', { email: 'outsider@elsewhere.test' });
    expectRefused(await ssoSignIn(env.origin, start, 'outsider'), 'sso_domain_not_allowed');
    await expectAudited(h, tenantId, 'sso_domain_not_allowed');
  });

  it('a sub from a second issuer with the same e-mail as a linked user', async () => {
    const { admin, tenantId, start } = await tenantWithSso(h, env.main);
    person(env.main, 'amelia');
    expect((await ssoSignIn(env.origin, start, 'amelia')).location).toBe('/backoffice/settings/api-keys');
    // The tenant moves to another provider, where someone holds the same address under another sub.
    await useProvider(admin, env.other, { create_users: true });
    person(env.other, 'someone-else', { email: 'amelia@example.test' });
    expectRefused(await ssoSignIn(env.origin, start, 'someone-else'), 'sso_identity_conflict');
    await expectAudited(h, tenantId, 'sso_identity_conflict');
  });

  it('a user the tenant does not have, when it does not create users', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.main, { create_users: false });
    person(env.main, 'stranger');
    expectRefused(await ssoSignIn(env.origin, start, 'stranger'), 'sso_user_unknown');
    await expectAudited(h, tenantId, 'sso_user_unknown');
  });

  it('a provider that cannot be reached', async () => {
    await freeDomains(h, ['example.test']);
    const tenant = await h.tenant();
    const admin = await h.signIn((await h.user(tenant.id, ['system_administrator'])).email);
    await useProvider(admin, { ...env.main, issuer: 'http://127.0.0.1:1' });
    const response = await new TestBrowser().get(`${env.origin}/backoffice/sso/${tenant.slug}/start`);
    expect(response.headers.get('location')).toBe('/backoffice/login?reason=sso_provider_unreachable');
    await expectAudited(h, tenant.id, 'sso_provider_unreachable');
  });

  it('malformed input as a problem document: no organisation or e-mail, a repeated state', async () => {
    const browser = new TestBrowser();
    const empty = await browser.get(`${env.origin}/backoffice/api/sso/start`);
    expect(empty.status).toBe(400);
    expect(empty.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await empty.json()) as { code: string }).code).toBe('invalid_request');
    const twice = await browser.get(`${env.origin}/backoffice/sso/callback?state=a&state=b`);
    expect(twice.status).toBe(400);
  });

  it('a re-authentication answered for another person than the session’s', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.main);
    person(env.main, 'first');
    person(env.main, 'second');
    await ssoSignIn(env.origin, start, 'second');
    const run = await ssoSignIn(env.origin, start, 'first');
    const again = await run.browser.get(`${env.origin}${start}?reauth=1`);
    const callbackUrl = await run.browser.signInAtProvider(
      again.headers.get('location')!,
      'second',
      `${env.origin}/backoffice/sso/callback`,
    );
    const response = await run.browser.get(callbackUrl);
    expectRefused({ response, location: response.headers.get('location')! }, 'sso_reauthentication_mismatch');
    await expectAudited(h, tenantId, 'sso_reauthentication_mismatch');
  });

  it('an organisation that does not sign in with single sign-on', async () => {
    const response = await new TestBrowser().get(`${env.origin}/backoffice/api/sso/start?org=no-such-org`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/backoffice/login?reason=sso_unknown_organisation');
  });
});
