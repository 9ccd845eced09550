import { describe, expect, it } from 'vitest';
import { useFixture, useHarness } from '../../support/use.ts';
import {
  expectAudited,
  expectRefused,
  lastSsoFailure,
  listening,
  person,
  ssoSignIn,
  startProvider,
  tenantWithSso,
  TestBrowser,
} from '../../support/sso-kit.ts';

/**
 * The callback's checks of the answer (docs/sso.md, the refusal table), over real HTTP against a
 * real provider: back to the sign-in page with the reason, an audit entry, and nobody signed in.
 */
describe('single sign-on refuses a bad answer from the provider', () => {
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

  it('a replayed state: the second use of one answer', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.main);
    person(env.main, 'replay');
    const run = await ssoSignIn(env.origin, start, 'replay');
    expect(run.location).toBe('/backoffice/settings/api-keys');
    const replayed = await run.browser.get(run.callbackUrl);
    expectRefused({ response: replayed, location: replayed.headers.get('location')! }, 'sso_state_invalid');
    await expectAudited(h, tenantId, 'sso_state_invalid');
    expect((await lastSsoFailure(h, tenantId))?.detail).toMatchObject({ why: 'replayed' });
  });

  it('a foreign state: an answer brought back by another browser than started it', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.main);
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
    const { tenantId, start } = await tenantWithSso(h, env.main);
    person(env.main, 'nonce');
    const run = await ssoSignIn(env.origin, start, 'nonce', {
      tamper: (url) => url.searchParams.set('nonce', 'another-requests-nonce'),
    });
    expectRefused(run, 'sso_nonce_mismatch');
    await expectAudited(h, tenantId, 'sso_nonce_mismatch');
  });

  it('an ID token signed by another key than the issuer publishes', async () => {
    // A provider of its own: airkey keeps a provider's keys once fetched (docs/sso.md (Caching)).
    const forging = await startProvider(`${env.origin}/backoffice/sso/callback`);
    const { tenantId, start } = await tenantWithSso(h, forging);
    person(forging, 'forged');
    forging.serveKeysOf(env.other);
    try {
      const run = await ssoSignIn(env.origin, start, 'forged');
      expectRefused(run, 'sso_signature_invalid');
      await expectAudited(h, tenantId, 'sso_signature_invalid');
    } finally {
      await forging.close();
    }
  });

  it('an expired ID token', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.shortLived);
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
    await expectAudited(h, tenantId, 'sso_token_expired');
  });

  it('an answer naming another issuer (RFC 9207, a mix-up)', async () => {
    const { tenantId, start } = await tenantWithSso(h, env.main);
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
    await expectAudited(h, tenantId, 'sso_issuer_mismatch');
  });
});
