import { describe, expect, it } from 'vitest';
import { useFixture, useHarness } from '../../support/use.ts';
import {
  expectRefused,
  lastSsoFailure,
  listening,
  ssoSignIn,
  startProvider,
  TestBrowser,
  useProvider,
  type TestProvider,
} from '../../support/sso-kit.ts';

/**
 * Every way the callback refuses (docs/sso.md, the refusal table), over real HTTP against a real
 * provider: back to the sign-in page with the reason, an audit entry, and nobody signed in.
 */
describe('single sign-on refuses', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date(), rewindClock: true });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      const [main, other, shortLived] = await Promise.all([
        startProvider(callback),
        startProvider(callback),
        startProvider(callback, { idTokenTtlSeconds: 60 }),
      ]);
      return { origin, main, other, shortLived };
    },
    async ({ main, other, shortLived }) => {
      await Promise.all([main.close(), other.close(), shortLived.close()]);
    },
  );

  async function tenantWithSso(provider: TestProvider, rules: Record<string, unknown> = { create_users: true }) {
    const tenant = await h.tenant();
    const admin = await h.signIn((await h.user(tenant.id, ['system_administrator'])).email);
    await useProvider(admin, provider, rules);
    return { admin, tenantId: tenant.id, start: `/backoffice/sso/${tenant.slug}/start` };
  }

  function person(provider: TestProvider, sub: string, claims: Record<string, unknown> = {}) {
    provider.accounts.set(sub, { sub, email: `${sub}@example.test`, email_verified: true, ...claims });
  }

  async function expectAudited(tenantId: string, reason: string) {
    const entry = await lastSsoFailure(h, tenantId);
    expect(entry?.detail).toMatchObject({ method: 'sso', reason });
  }

  it('a replayed state: the second use of one answer', async () => {
    const { tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'replay');
    const run = await ssoSignIn(env.origin, start, 'replay');
    expect(run.location).toBe('/backoffice/settings/api-keys');
    const replayed = await run.browser.get(run.callbackUrl);
    expectRefused({ response: replayed, location: replayed.headers.get('location')! }, 'sso_state_invalid');
    await expectAudited(tenantId, 'sso_state_invalid');
    expect((await lastSsoFailure(h, tenantId))?.detail).toMatchObject({ why: 'replayed' });
  });

  it('a foreign state: an answer brought back by another browser than started it', async () => {
    const { tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'foreign');
    const run = await ssoSignIn(env.origin, start, 'foreign', { callbackBy: new TestBrowser() });
    expectRefused(run, 'sso_state_invalid');
    expect((await lastSsoFailure(h, tenantId))?.detail).toMatchObject({ why: 'another_browser' });
  });

  it('a state nobody issued', async () => {
    const response = await new TestBrowser().get(`${env.origin}/backoffice/sso/callback?code=x&state=made-up`);
    expectRefused({ response, location: response.headers.get('location')! }, 'sso_state_invalid');
  });

  it('a wrong nonce: the ID token was issued for another request', async () => {
    const { tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'nonce');
    const run = await ssoSignIn(env.origin, start, 'nonce', {
      tamper: (url) => url.searchParams.set('nonce', 'another-requests-nonce'),
    });
    expectRefused(run, 'sso_nonce_mismatch');
    await expectAudited(tenantId, 'sso_nonce_mismatch');
  });

  it('an ID token signed by another key than the issuer publishes', async () => {
    const { tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'forged');
    env.main.serveKeysOf(env.other);
    try {
      const run = await ssoSignIn(env.origin, start, 'forged');
      expectRefused(run, 'sso_signature_invalid');
      await expectAudited(tenantId, 'sso_signature_invalid');
    } finally {
      env.main.serveKeysOf(null);
    }
  });

  it('an expired ID token', async () => {
    const { tenantId, start } = await tenantWithSso(env.shortLived);
    person(env.shortLived, 'late');
    const browser = new TestBrowser();
    const started = await browser.get(`${env.origin}${start}`);
    const callbackUrl = await browser.signInAtProvider(
      started.headers.get('location')!,
      'late',
      `${env.origin}/backoffice/sso/callback`,
    );
    // The token lives 60 s; the server's clock reads it five minutes on (the flow itself lives ten).
    h.clock.advance(5 * 60_000);
    const response = await browser.get(callbackUrl);
    expectRefused({ response, location: response.headers.get('location')! }, 'sso_token_expired');
    await expectAudited(tenantId, 'sso_token_expired');
  });

  it('an e-mail the provider has not verified', async () => {
    const { tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'unverified', { email_verified: false });
    expectRefused(await ssoSignIn(env.origin, start, 'unverified'), 'sso_email_unverified');
    await expectAudited(tenantId, 'sso_email_unverified');
  });

  it('an e-mail outside the allowed domains', async () => {
    const { tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'outsider', { email: 'outsider@elsewhere.test' });
    expectRefused(await ssoSignIn(env.origin, start, 'outsider'), 'sso_domain_not_allowed');
    await expectAudited(tenantId, 'sso_domain_not_allowed');
  });

  it('a sub from a second issuer with the same e-mail as a linked user', async () => {
    const { admin, tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'amelia');
    expect((await ssoSignIn(env.origin, start, 'amelia')).location).toBe('/backoffice/settings/api-keys');
    // The tenant moves to another provider, where someone holds the same address under another sub.
    await useProvider(admin, env.other, { create_users: true });
    person(env.other, 'someone-else', { email: 'amelia@example.test' });
    expectRefused(await ssoSignIn(env.origin, start, 'someone-else'), 'sso_identity_conflict');
    await expectAudited(tenantId, 'sso_identity_conflict');
  });

  it('a user the tenant does not have, when it does not create users', async () => {
    const { tenantId, start } = await tenantWithSso(env.main, { create_users: false });
    person(env.main, 'stranger');
    expectRefused(await ssoSignIn(env.origin, start, 'stranger'), 'sso_user_unknown');
    await expectAudited(tenantId, 'sso_user_unknown');
  });

  it('an answer naming another issuer (RFC 9207, a mix-up)', async () => {
    const { tenantId, start } = await tenantWithSso(env.main);
    person(env.main, 'mixup');
    const browser = new TestBrowser();
    const started = await browser.get(`${env.origin}${start}`);
    const callback = new URL(
      await browser.signInAtProvider(
        started.headers.get('location')!,
        'mixup',
        `${env.origin}/backoffice/sso/callback`,
      ),
    );
    callback.searchParams.set('iss', env.other.issuer);
    const response = await browser.get(callback.href);
    expectRefused({ response, location: response.headers.get('location')! }, 'sso_issuer_mismatch');
    await expectAudited(tenantId, 'sso_issuer_mismatch');
  });

  it('a provider that cannot be reached', async () => {
    const tenant = await h.tenant();
    const admin = await h.signIn((await h.user(tenant.id, ['system_administrator'])).email);
    await useProvider(admin, { ...env.main, issuer: 'http://127.0.0.1:1' });
    const response = await new TestBrowser().get(`${env.origin}/backoffice/sso/${tenant.slug}/start`);
    expect(response.headers.get('location')).toBe('/backoffice/login?reason=sso_provider_unreachable');
    await expectAudited(tenant.id, 'sso_provider_unreachable');
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
    const { tenantId, start } = await tenantWithSso(env.main);
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
    await expectAudited(tenantId, 'sso_reauthentication_mismatch');
  });

  it('an organisation that does not sign in with single sign-on', async () => {
    const response = await new TestBrowser().get(`${env.origin}/backoffice/api/sso/start?org=no-such-org`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/backoffice/login?reason=sso_unknown_organisation');
  });
});
