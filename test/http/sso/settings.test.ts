import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { startProvider, type TestProvider } from '../../support/oidc-kit.ts';
import { expectProblem } from '../../support/problems.ts';
import { SoftAuthenticator } from '../../support/soft-authenticator.ts';
import { useFixture, useHarness } from '../../support/use.ts';

const SSO = {
  issuer: 'https://login.example.com',
  client_id: 'airkey',
  client_secret: 'the client secret',
  allowed_domains: ['Example.test'],
  role_claim: 'groups',
  role_map: { admins: ['system_administrator'] },
  default_roles: ['crew'],
  create_users: true,
};

describe('sign-in settings with single sign-on', () => {
  const h = useHarness();

  it('keeps the client secret write-only, and audits the change without it', async () => {
    const admin = await h.signedIn();
    const saved = await admin.request('PATCH', '/backoffice/api/sign-in-settings', { sso: SSO });
    expect(saved.statusCode).toBe(200);
    const expected = {
      issuer: 'https://login.example.com',
      client_id: 'airkey',
      client_secret_set: true,
      allowed_domains: ['example.test'],
      role_claim: 'groups',
      role_map: { admins: ['system_administrator'] },
      default_roles: ['crew'],
      create_users: true,
    };
    expect(saved.json()).toEqual({
      second_factor_required: 'none',
      password_sign_in: true,
      sso: expected,
      oauth_apps: 'key_managers',
    });
    const read = await admin.request('GET', '/backoffice/api/sign-in-settings');
    expect(read.json()).toMatchObject({ sso: expected });
    expect(read.body).not.toContain('the client secret');
    // Leaving the secret out keeps the stored one.
    const renamed = await admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: { ...SSO, client_secret: undefined, client_id: 'airkey-2' },
    });
    expect(renamed.json()).toMatchObject({ sso: { client_id: 'airkey-2', client_secret_set: true } });
    const trail = await admin.request('GET', '/backoffice/api/audit-events?action=tenant.sign_in_settings_changed');
    expect(trail.body).not.toContain('the client secret');
    expect(trail.json<{ data: Array<{ detail: Record<string, unknown> }> }>().data[1]?.detail).toMatchObject({
      from: { sso: null },
      to: { sso: expected },
      client_secret_changed: true,
    });
  });

  it('is for System Administrators only: a role map can grant any role', async () => {
    const tenantAdmin = await h.signedIn(['administrator']);
    expectProblem(await tenantAdmin.request('GET', '/backoffice/api/sign-in-settings'), 403, 'permission_denied');
    expectProblem(
      await tenantAdmin.request('PATCH', '/backoffice/api/sign-in-settings', { sso: SSO }),
      403,
      'permission_denied',
    );
  });

  it('refuses an issuer at a private address or over http unless SSO_ALLOW_PRIVATE=1', async () => {
    const admin = await h.signedIn();
    for (const issuer of [
      'http://login.example.com',
      'https://127.0.0.1:8443',
      'https://10.1.2.3',
      'https://localhost',
    ]) {
      const response = await admin.request('PATCH', '/backoffice/api/sign-in-settings', { sso: { ...SSO, issuer } });
      expect(expectProblem(response, 400, 'invalid_request').errors?.[0]?.path).toBe('sso.issuer');
    }
    // "Test the connection" does not probe the server's own network either.
    const probe = await admin.request('POST', '/backoffice/api/sign-in-settings/sso/test', {
      issuer: 'https://127.0.0.1:22',
    });
    expectProblem(probe, 400, 'invalid_request');
    const first = await admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: { ...SSO, client_secret: undefined },
    });
    expect(expectProblem(first, 400, 'invalid_request').errors?.[0]?.path).toBe('sso.client_secret');
  });

  it('with password sign-in off, refuses the password and the passkey with sso_required; the CLI’s service restores it', async () => {
    const admin = await h.signedIn();
    const authenticator = new SoftAuthenticator('http://localhost');
    const options = await admin.request('POST', '/backoffice/api/me/passkeys/options');
    await admin.request('POST', '/backoffice/api/me/passkeys', {
      name: 'Key',
      response: authenticator.register(options.json()),
    });
    // A domain is in one tenant's single sign-on at most: this tenant lists its own.
    const off = await admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: { ...SSO, allowed_domains: ['off.example.test'] },
      password_sign_in: false,
    });
    expect(off.statusCode).toBe(200);
    expectProblem(await h.signInAttempt(admin.email, TEST_PASSWORD), 403, 'sso_required');
    const request = (
      await h.app.inject({ method: 'POST', url: '/backoffice/api/session/passkey/options' })
    ).json<PublicKeyCredentialRequestOptionsJSON>();
    const passkey = await h.app.inject({
      method: 'POST',
      url: '/backoffice/api/session/passkey',
      payload: { response: authenticator.assert(request) },
    });
    expectProblem(passkey, 403, 'sso_required');
    // Removing the provider while passwords are off would lock everyone out.
    const removed = await admin.request('PATCH', '/backoffice/api/sign-in-settings', { sso: null });
    expect(expectProblem(removed, 400, 'invalid_request').errors?.[0]?.path).toBe('sso');
    const tenant = (await admin.request('GET', '/backoffice/api/session')).json<{
      user: { tenant: { slug: string } };
    }>();
    const { SYSTEM_ACTOR } = await import('../../../src/shared/actor.ts');
    await h.services.signIn.settings.updateAsSystem(SYSTEM_ACTOR, tenant.user.tenant.slug, { password_sign_in: true });
    expect((await h.signInAttempt(admin.email, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('the address guard on requests to a provider', () => {
  // idp.fjord.test resolves to a private address: the connection is refused, whatever the name says.
  const h = useHarness({ overrides: { ssoResolver: () => Promise.resolve(['10.20.30.40']) } });

  it('refuses to connect to a name that resolves to a private address', async () => {
    const admin = await h.signedIn();
    const saved = await admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: { ...SSO, issuer: 'https://idp.fjord.test' },
    });
    expect(saved.statusCode).toBe(200);
    const tested = await admin.request('POST', '/backoffice/api/sign-in-settings/sso/test');
    expect(tested.json()).toMatchObject({ reachable: false, reason: 'sso_provider_unreachable' });
    expect(tested.json<{ detail: string }>().detail).toMatch(/not allowed|10\.20\.30\.40/);
  });
});

describe('testing the connection to a provider', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true } });
  const provider = useFixture<TestProvider>(
    () => startProvider('http://127.0.0.1:1/backoffice/sso/callback'),
    (started) => started.close(),
  );

  it('runs discovery and reports what it found, or why it could not', async () => {
    const admin = await h.signedIn();
    const found = await admin.request('POST', '/backoffice/api/sign-in-settings/sso/test', {
      issuer: provider.issuer,
    });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({
      reachable: true,
      discovery: {
        issuer: provider.issuer,
        token_endpoint: `${provider.issuer}/token`,
        client_authentication: 'client_secret_basic',
      },
    });
    const nothing = await admin.request('POST', '/backoffice/api/sign-in-settings/sso/test', {
      issuer: 'http://127.0.0.1:1',
    });
    expect(nothing.json()).toMatchObject({ reachable: false, reason: 'sso_provider_unreachable' });
    expectProblem(await admin.request('POST', '/backoffice/api/sign-in-settings/sso/test', {}), 400, 'invalid_request');
  });
});
