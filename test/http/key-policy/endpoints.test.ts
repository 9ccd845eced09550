import { describe, expect, it } from 'vitest';
import type { KeyPolicy } from '../../../src/keys/policy/key-policy.ts';
import { auditActions } from '../../support/actors.ts';
import { expectProblem } from '../../support/problems.ts';
import { json, useHarness } from '../../support/use.ts';

const DEFAULTS: KeyPolicy = {
  max_lifetime_days: null,
  require_expiry: false,
  disable_unused_after_days: null,
  require_allowed_ips: false,
};

/** `GET` and `PATCH /backoffice/api/key-policy` (docs/api.md). */
describe('the key policy endpoints', () => {
  const h = useHarness();

  it('answers 200 with the defaults for a tenant that never set a policy', async () => {
    const admin = await h.signedIn();
    const response = await admin.request('GET', '/backoffice/api/key-policy');
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual(DEFAULTS);
  });

  it('changes the fields given, keeps the others, and audits before and after once', async () => {
    const admin = await h.signedIn();
    const first = await admin.request('PATCH', '/backoffice/api/key-policy', { max_lifetime_days: 90 });
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toEqual({ ...DEFAULTS, max_lifetime_days: 90 });
    const second = await admin.request('PATCH', '/backoffice/api/key-policy', {
      require_expiry: true,
      disable_unused_after_days: 365,
    });
    const after = { ...DEFAULTS, max_lifetime_days: 90, require_expiry: true, disable_unused_after_days: 365 };
    expect(json(second)).toEqual(after);
    expect(json(await admin.request('PATCH', '/backoffice/api/key-policy', { require_expiry: true }))).toEqual(after);
    expect(json(await admin.request('GET', '/backoffice/api/key-policy'))).toEqual(after);
    const changes = (await auditActions(h, admin.tenantId)).filter((e) => e.action === 'tenant.key_policy_changed');
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({
      actor: { type: 'user', id: admin.userId },
      target: { id: admin.tenantId },
      detail: { before: { ...DEFAULTS, max_lifetime_days: 90 }, after },
    });
  });

  it('clears a number with null', async () => {
    const admin = await h.signedIn();
    await admin.request('PATCH', '/backoffice/api/key-policy', { max_lifetime_days: 30 });
    const cleared = await admin.request('PATCH', '/backoffice/api/key-policy', { max_lifetime_days: null });
    expect(json<KeyPolicy>(cleared).max_lifetime_days).toBeNull();
  });

  it.each([
    ['zero days', { max_lifetime_days: 0 }, 'max_lifetime_days'],
    ['3651 days', { disable_unused_after_days: 3651 }, 'disable_unused_after_days'],
    ['a fraction of a day', { max_lifetime_days: 1.5 }, 'max_lifetime_days'],
    ['days as text', { max_lifetime_days: '30' }, 'max_lifetime_days'],
    ['a flag as text', { require_expiry: 'yes' }, 'require_expiry'],
    ['an unknown field', { max_keys: 3 }, 'max_keys'],
    ['an empty change', {}, 'body'],
  ])('answers 400 invalid_request naming the field for %s', async (_what, payload, path) => {
    const admin = await h.signedIn();
    const body = expectProblem(
      await admin.request('PATCH', '/backoffice/api/key-policy', payload),
      400,
      'invalid_request',
    );
    expect(body.errors?.map((e) => e.path)).toContain(path);
    expect(json(await admin.request('GET', '/backoffice/api/key-policy'))).toEqual(DEFAULTS);
  });

  it('answers 403 permission_denied to roles without api_keys:manage, for reading and changing', async () => {
    const admin = await h.signedIn();
    for (const role of ['administrator', 'operations', 'crew'] as const) {
      const other = await h.signIn((await h.user(admin.tenantId, [role])).email);
      expectProblem(await other.request('GET', '/backoffice/api/key-policy'), 403, 'permission_denied');
      expectProblem(
        await other.request('PATCH', '/backoffice/api/key-policy', { require_expiry: true }),
        403,
        'permission_denied',
      );
    }
    expect(json(await admin.request('GET', '/backoffice/api/key-policy'))).toEqual(DEFAULTS);
  });

  it('answers 403 csrf_rejected to a change without the CSRF token, and 401 without a session', async () => {
    const admin = await h.signedIn();
    const noToken = await h.app.inject({
      method: 'PATCH',
      url: '/backoffice/api/key-policy',
      payload: { require_expiry: true },
      headers: { cookie: admin.cookie },
    });
    expectProblem(noToken, 403, 'csrf_rejected');
    expectProblem(await h.app.inject({ method: 'GET', url: '/backoffice/api/key-policy' }), 401, 'not_authenticated');
    expect(json(await admin.request('GET', '/backoffice/api/key-policy'))).toEqual(DEFAULTS);
  });

  it("keeps each tenant's policy its own", async () => {
    const strict = await h.signedIn();
    const lax = await h.signedIn();
    await strict.request('PATCH', '/backoffice/api/key-policy', { require_expiry: true });
    expect(json(await lax.request('GET', '/backoffice/api/key-policy'))).toEqual(DEFAULTS);
    expect((await h.createKey(lax, { name: 'forever' })).api_key.expires_at).toBeNull();
  });
});
