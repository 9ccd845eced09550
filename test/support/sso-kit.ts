import { and, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditEvents, tenants } from '../../src/db/schema.ts';
import { ssoDomains } from '../../src/db/sso-tables.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import type { Harness, Session } from './harness.ts';
import { TestBrowser, startProvider, type TestAccount, type TestProvider } from './oidc-kit.ts';

/** Airkey on a real port (the provider redirects a browser to it) and its callback address. */
export async function listening(h: Harness): Promise<{ origin: string; callback: string }> {
  const address = await h.app.listen({ host: '127.0.0.1', port: 0 });
  return { origin: address, callback: `${address}/backoffice/sso/callback` };
}

export { startProvider, TestBrowser, type TestAccount, type TestProvider };

/** The tenant's sign-in settings pointed at `provider`, by its System Administrator. */
export async function useProvider(admin: Session, provider: TestProvider, sso: Record<string, unknown> = {}) {
  const response = await admin.request('PATCH', '/backoffice/api/sign-in-settings', {
    sso: {
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      allowed_domains: ['example.test'],
      ...sso,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
}

export type SsoRun = { browser: TestBrowser; callbackUrl: string; location: string; response: Response };

/**
 * The whole flow as a browser sees it: start at airkey, the provider's login as `accountId`, back
 * to the callback. `tamper` may change the request to the provider; `callbackBy` is the browser
 * that brings the answer back (another one than started it, for the foreign-state refusal).
 */
export async function ssoSignIn(
  origin: string,
  start: string,
  accountId: string,
  options: { browser?: TestBrowser; tamper?: (url: URL) => void; callbackBy?: TestBrowser } = {},
): Promise<SsoRun> {
  const browser = options.browser ?? new TestBrowser();
  const started = await browser.get(`${origin}${start}`);
  expect(started.status, await started.clone().text()).toBe(302);
  const authorization = new URL(started.headers.get('location')!);
  options.tamper?.(authorization);
  const callbackUrl = await browser.signInAtProvider(
    authorization.href,
    accountId,
    `${origin}/backoffice/sso/callback`,
  );
  const response = await (options.callbackBy ?? browser).get(callbackUrl);
  return { browser, callbackUrl, location: response.headers.get('location') ?? '', response };
}

/** The refusal a callback redirected to: the sign-in page with `?reason=`, and no session cookie set. */
export function expectRefused(run: { response: Response; location: string }, reason: string): void {
  expect(run.response.status).toBe(302);
  const page = new URL(run.location, 'http://airkey');
  expect(page.pathname).toBe('/backoffice/login');
  expect(page.searchParams.get('reason')).toBe(reason);
  expect(run.response.headers.getSetCookie().some((line) => line.startsWith('airkey_session='))).toBe(false);
}

/**
 * A domain is in one tenant's single sign-on at most: the tests of a file share a database, so a
 * new tenant takes the domains it needs from whichever earlier tenant listed them, as an operator
 * would (`airkey sso move-domain` without `--to`).
 */
export async function freeDomains(h: Harness, domains: string[]): Promise<void> {
  for (const domain of domains.map((d) => d.toLowerCase())) {
    const [holder] = await h.services.database.db
      .select({ slug: tenants.slug })
      .from(ssoDomains)
      .innerJoin(tenants, eq(tenants.id, ssoDomains.tenantId))
      .where(eq(ssoDomains.domain, domain));
    if (holder) await h.services.signIn.ssoAdmin.moveDomain(SYSTEM_ACTOR, { domain, from: holder.slug });
  }
}

/** A new tenant whose System Administrator points its sign-in settings at `provider`. */
export async function tenantWithSso(
  h: Harness,
  provider: TestProvider,
  rules: Record<string, unknown> = { create_users: true },
) {
  await freeDomains(h, (rules.allowed_domains as string[] | undefined) ?? ['example.test']);
  const tenant = await h.tenant();
  const admin = await h.signIn((await h.user(tenant.id, ['system_administrator'])).email);
  await useProvider(admin, provider, rules);
  return { admin, tenantId: tenant.id, slug: tenant.slug, start: `/backoffice/sso/${tenant.slug}/start` };
}

/** Someone the provider knows, with a verified e-mail at example.test unless the claims say otherwise. */
export function person(provider: TestProvider, sub: string, claims: Record<string, unknown> = {}): void {
  provider.accounts.set(sub, { sub, email: `${sub}@example.test`, email_verified: true, ...claims });
}

/** The refusal's audit entry: the latest `user.sign_in_failed` of the tenant, method `sso`, with the reason. */
export async function expectAudited(h: Harness, tenantId: string, reason: string): Promise<void> {
  expect((await lastSsoFailure(h, tenantId))?.detail).toMatchObject({ method: 'sso', reason });
}

/** The latest `user.sign_in_failed` of the tenant, as the audit trail keeps it. */
export async function lastSsoFailure(h: Harness, tenantId: string) {
  const [row] = await h.services.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, 'user.sign_in_failed')))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

/** A back-office request as the browser holding the session cookie (CSRF token from the session). */
export async function asBrowser(origin: string, browser: TestBrowser) {
  const session = await browser.get(`${origin}/backoffice/api/session`);
  const body = (await session.json()) as {
    csrf_token: string;
    user: { email: string; roles: string[] };
    signed_in_with: string;
  };
  return {
    user: body.user,
    signedInWith: body.signed_in_with,
    request: (method: string, path: string, payload?: unknown) =>
      browser.send(`${origin}${path}`, {
        method,
        headers: {
          'x-csrf-token': body.csrf_token,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      }),
  };
}
