import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useFixture, useHarness } from '../../support/use.ts';
import { listening, person, ssoSignIn, startProvider, tenantWithSso } from '../../support/sso-kit.ts';

const HOME = '/backoffice/settings/api-keys';

/** Shapes that leave this origin once a browser (or the URL parser) has normalised them. */
const ESCAPES = [
  '/.//evil.example/x',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  '/a/..//evil.example',
  '/backoffice/..//evil.example',
  '/backoffice/%2e%2e//evil.example/x',
  '/backoffice/../..//evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '/%5cevil.example',
  '/%2fevil.example',
  '/backoffice/%2f%2fevil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '//evil.example',
  '///evil.example',
  'https://evil.example/backoffice/',
  'javascript:alert(1)',
  '/backoffice/login?next=//evil.example',
  '/api/v1/flights',
];

/** Where the browser is sent, resolved against this server: it must stay on the back office. */
function expectBackOffice(location: string, origin: string): void {
  const url = new URL(location, origin);
  expect(url.origin).toBe(new URL(origin).origin);
  expect(url.pathname.startsWith('/backoffice/')).toBe(true);
  expect(location.startsWith('/backoffice/')).toBe(true);
}

describe('the page after single sign-on never leaves this server', () => {
  const h = useHarness({
    // Each test browser is a client of its own behind the trusted proxy: SSO start is throttled per client.
    config: { ssoAllowPrivate: true, trustedProxies: ['127.0.0.1'] },
    now: new Date(),
  });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      const provider = await startProvider(callback);
      const tenant = await tenantWithSso(h, provider);
      person(provider, 'sub-eve');
      return { origin, provider, tenant };
    },
    ({ provider }) => provider.close(),
  );

  it('ignores a next that normalises to another host, after a real sign-in at the provider', async () => {
    for (const next of ESCAPES) {
      const run = await ssoSignIn(env.origin, `${env.tenant.start}?next=${encodeURIComponent(next)}`, 'sub-eve');
      expect(run.response.status).toBe(302);
      expect(run.location, next).toBe(HOME);
    }
  });

  it('keeps a next that is a back-office page, normalised', async () => {
    const kept = await ssoSignIn(
      env.origin,
      `${env.tenant.start}?next=%2Fbackoffice%2Fsettings%2Fusers%3Fq%3D1`,
      'sub-eve',
    );
    expect(kept.location).toBe('/backoffice/settings/users?q=1');
    const dotted = await ssoSignIn(env.origin, `${env.tenant.start}?next=/backoffice/x/../settings/users`, 'sub-eve');
    expect(dotted.location).toBe('/backoffice/settings/users');
  });

  it('ignores such a next on re-authentication too', async () => {
    const first = await ssoSignIn(env.origin, env.tenant.start, 'sub-eve');
    for (const next of ['/.//evil.example/x', '/%2e//evil.example', '/a/..//evil.example']) {
      const started = await first.browser.get(
        `${env.origin}${env.tenant.start}?reauth=1&next=${encodeURIComponent(next)}`,
      );
      expect(started.status).toBe(302);
      const back = await first.browser.get(
        await first.browser.signInAtProvider(
          started.headers.get('location')!,
          'sub-eve',
          `${env.origin}/backoffice/sso/callback`,
        ),
      );
      expect(back.headers.get('location'), next).toBe(HOME);
    }
  });

  it('carries only a back-office next to the sign-in page when a start is refused', async () => {
    const browser = await fetch(
      `${env.origin}/backoffice/sso/no-such-tenant/start?next=${encodeURIComponent('/.//evil.example')}`,
      {
        redirect: 'manual',
      },
    );
    const page = new URL(browser.headers.get('location')!, env.origin);
    expect(page.pathname).toBe('/backoffice/login');
    expect(page.searchParams.get('next')).toBeNull();
  });

  it('sends the browser to this origin’s /backoffice/ for any path shape (property)', async () => {
    const segment = fc.constantFrom(
      '',
      '.',
      '..',
      '%2e',
      '%2E%2e',
      '.%2e',
      'backoffice',
      'settings',
      'evil.example',
      '%2f',
      '%5c',
      '\\',
      '\t',
      '@evil.example',
      ':',
      '%00',
    );
    const shape = fc
      .tuple(fc.constantFrom('/', '//', '\\', '/\\', 'https:', ''), fc.array(segment, { maxLength: 6 }))
      .map(([lead, parts]) => `${lead}${parts.join('/')}`);
    await fc.assert(
      fc.asyncProperty(shape, async (next) => {
        const run = await ssoSignIn(env.origin, `${env.tenant.start}?next=${encodeURIComponent(next)}`, 'sub-eve');
        expectBackOffice(run.location, env.origin);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
