import { describe, expect, it } from 'vitest';
import { lifetimeMs } from '../../../src/sso/provider-cache.ts';
import { useFixture, useHarness } from '../../support/use.ts';
import { listening, person, ssoSignIn, startProvider, TestBrowser, tenantWithSso } from '../../support/sso-kit.ts';

const DISCOVERY = '/.well-known/openid-configuration';

/** A sign-in start is not a request to the provider: discovery and keys are kept by their cache headers. */
describe('the provider’s discovery and keys, cached', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date(), rewindClock: true });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      return { origin, provider: await startProvider(callback) };
    },
    ({ provider }) => provider.close(),
  );

  it('discovers once for many starts and fetches the keys once for many sign-ins', async () => {
    const { start } = await tenantWithSso(h, env.provider);
    const discovery = (await (await fetch(`${env.provider.issuer}${DISCOVERY}`)).json()) as { jwks_uri: string };
    const jwksPath = new URL(discovery.jwks_uri).pathname;
    const before = {
      discovery: env.provider.requests.get(DISCOVERY) ?? 0,
      jwks: env.provider.requests.get(jwksPath) ?? 0,
    };
    for (let i = 0; i < 5; i += 1) {
      const started = await new TestBrowser().get(`${env.origin}${start}`);
      expect(started.status).toBe(302);
    }
    person(env.provider, 'sub-cache');
    for (let i = 0; i < 2; i += 1) {
      expect((await ssoSignIn(env.origin, start, 'sub-cache')).location).toBe('/backoffice/settings/api-keys');
    }
    expect((env.provider.requests.get(DISCOVERY) ?? 0) - before.discovery).toBeLessThanOrEqual(1);
    expect((env.provider.requests.get(jwksPath) ?? 0) - before.jwks).toBe(1);
  });

  it('discovers again once the kept document is past its lifetime (at least a minute)', async () => {
    const { start } = await tenantWithSso(h, env.provider);
    await new TestBrowser().get(`${env.origin}${start}`);
    const seen = env.provider.requests.get(DISCOVERY) ?? 0;
    await new TestBrowser().get(`${env.origin}${start}`);
    expect(env.provider.requests.get(DISCOVERY)).toBe(seen);
    h.clock.advance(86_400_000 + 1000);
    await new TestBrowser().get(`${env.origin}${start}`);
    expect(env.provider.requests.get(DISCOVERY)).toBe(seen + 1);
  });

  it('reads the lifetime from Cache-Control or Expires, between one minute and one day', () => {
    const at = (init: Record<string, string>) => lifetimeMs(new Headers(init), Date.parse('2026-11-29T00:00:00Z'));
    expect(at({ 'cache-control': 'public, max-age=3600' })).toBe(3_600_000);
    expect(at({ 'cache-control': 'max-age=5' })).toBe(60_000);
    expect(at({ 'cache-control': 'no-store' })).toBe(60_000);
    expect(at({ 'cache-control': 'max-age=31536000' })).toBe(86_400_000);
    expect(at({ date: 'Sun, 29 Nov 2026 08:00:00 GMT', expires: 'Sun, 29 Nov 2026 10:00:00 GMT' })).toBe(7_200_000);
    expect(at({})).toBe(60_000);
  });
});
