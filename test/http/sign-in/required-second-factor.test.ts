import { describe, expect, it } from 'vitest';
import type { Session } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { enrolTotp } from '../../support/second-factors.ts';
import { useHarness } from '../../support/use.ts';

describe('a tenant that requires a second factor', () => {
  const h = useHarness();

  const require = (admin: Session, level: 'none' | 'key_managers' | 'everyone') =>
    admin.request('PATCH', '/backoffice/api/sign-in-settings', { second_factor_required: level });

  it('is off by default: the settings say none, and people sign in as before', async () => {
    const admin = await h.signedIn();
    const settings = await admin.request('GET', '/backoffice/api/sign-in-settings');
    expect(settings.json()).toEqual({
      second_factor_required: 'none',
      password_sign_in: true,
      sso: null,
      oauth_apps: 'key_managers',
    });
    const session = await admin.request('GET', '/backoffice/api/session');
    expect(session.json()).toMatchObject({ enrolment_required: false, second_factor_methods: [] });
  });

  it('signs a key manager without one in for enrolment only: every other endpoint answers 403', async () => {
    const admin = await h.signedIn();
    const other = await h.signIn((await h.user(admin.tenantId, ['system_administrator'])).email);
    expect((await require(admin, 'key_managers')).statusCode).toBe(200);
    // Judged on every request: the session already open is limited at once.
    expect((await other.request('GET', '/backoffice/api/session')).json()).toMatchObject({ enrolment_required: true });
    for (const url of ['/backoffice/api/api-keys', '/backoffice/api/users', '/backoffice/api/audit-events']) {
      expectProblem(await other.request('GET', url), 403, 'second_factor_required');
    }
    expectProblem(
      await other.request('POST', '/backoffice/api/api-keys', { name: 'k' }),
      403,
      'second_factor_required',
    );
    expect((await other.request('GET', '/backoffice/api/me/security')).statusCode).toBe(200);

    await enrolTotp(h, other);
    expect((await other.request('GET', '/backoffice/api/session')).json()).toMatchObject({ enrolment_required: false });
    expect((await other.request('GET', '/backoffice/api/api-keys')).statusCode).toBe(200);
  });

  it('covers key and user managers under key_managers, and everyone under everyone', async () => {
    const admin = await h.signedIn();
    await enrolTotp(h, admin);
    const operations = await h.signIn((await h.user(admin.tenantId, ['operations'])).email);
    const administrator = await h.signIn((await h.user(admin.tenantId, ['administrator'])).email);
    await require(admin, 'key_managers');
    expect((await operations.request('GET', '/backoffice/api/session')).json()).toMatchObject({
      enrolment_required: false,
    });
    expect((await administrator.request('GET', '/backoffice/api/session')).json()).toMatchObject({
      enrolment_required: true,
    });
    await require(admin, 'everyone');
    expect((await operations.request('GET', '/backoffice/api/session')).json()).toMatchObject({
      enrolment_required: true,
    });
  });

  it('keeps the last factor: removing it is 409 second_factor_required', async () => {
    const admin = await h.signedIn();
    await enrolTotp(h, admin);
    await require(admin, 'everyone');
    expectProblem(await admin.request('DELETE', '/backoffice/api/me/totp'), 409, 'second_factor_required');
    expect((await admin.request('GET', '/backoffice/api/me/security')).json()).toMatchObject({
      second_factors: { totp: true },
    });
  });

  it('lets only a System Administrator read or change the settings, audited', async () => {
    const admin = await h.signedIn();
    await enrolTotp(h, admin);
    const manager = await h.signIn((await h.user(admin.tenantId, ['administrator'])).email);
    expectProblem(await manager.request('GET', '/backoffice/api/sign-in-settings'), 403, 'permission_denied');
    expectProblem(await require(manager, 'everyone'), 403, 'permission_denied');
    const crew = await h.signIn((await h.user(admin.tenantId, ['crew'])).email);
    expectProblem(await crew.request('GET', '/backoffice/api/sign-in-settings'), 403, 'permission_denied');
    await require(admin, 'key_managers');
    const trail = (await admin.request('GET', '/backoffice/api/audit-events?limit=5')).json<{
      data: Array<{ action: string; detail: Record<string, unknown> }>;
    }>();
    expect(trail.data[0]).toMatchObject({
      action: 'tenant.sign_in_settings_changed',
      detail: { from: { second_factor_required: 'none' }, to: { second_factor_required: 'key_managers' } },
    });
  });

  it('refuses turning password sign-in off while no identity provider is set up', async () => {
    const admin = await h.signedIn();
    const response = await admin.request('PATCH', '/backoffice/api/sign-in-settings', { password_sign_in: false });
    expect(expectProblem(response, 400, 'invalid_request').errors?.[0]?.path).toBe('password_sign_in');
    const unknown = await admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      second_factor_required: 'some',
    });
    expectProblem(unknown, 400, 'invalid_request');
  });
});
