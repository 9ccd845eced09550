import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD, type Session } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { cookieFrom, enrolTotp, totpCode } from '../../support/second-factors.ts';
import { SoftAuthenticator } from '../../support/soft-authenticator.ts';
import { useHarness } from '../../support/use.ts';

const REAUTH_MS = 10 * 60_000;

describe('re-authentication before sensitive actions', () => {
  const h = useHarness({ config: { reauthMinutes: 10 } });

  /** Everything that needs a fresh sign-in, with what each request needs to exist. */
  async function sensitiveRequests(admin: Session) {
    const key = (await h.createKey(admin)).api_key;
    const disabled = (await h.createKey(admin)).api_key;
    await admin.request('PATCH', `/backoffice/api/api-keys/${disabled.id}`, { enabled: false });
    const webhook = (
      await admin.request('POST', '/backoffice/api/webhooks', { url: 'https://hooks.example.com/airkey' })
    ).json<{ webhook: { id: string } }>().webhook;
    const colleague = await h.user(admin.tenantId, ['operations']);
    const registration = new SoftAuthenticator('http://localhost').register({
      challenge: 'AAAA',
      rp: { id: 'localhost', name: 'airkey' },
      user: { id: 'dXNlcg', name: 'u', displayName: 'u' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    });
    const newUser = { email: `new-${key.id.slice(0, 8)}@example.test`, name: 'New', roles: ['crew'] };
    return [
      ['POST', '/backoffice/api/api-keys', { name: 'another' }],
      ['PATCH', `/backoffice/api/api-keys/${disabled.id}`, { enabled: true }],
      ['POST', `/backoffice/api/api-keys/${key.id}/roll`, { overlap: 'none' }],
      ['DELETE', `/backoffice/api/api-keys/${key.id}`, undefined],
      ['PATCH', '/backoffice/api/key-policy', { require_expiry: true }],
      ['POST', '/backoffice/api/webhooks', { url: 'https://other.example.com/hook' }],
      ['PATCH', `/backoffice/api/webhooks/${webhook.id}`, { url: 'https://moved.example.com/hook' }],
      ['POST', `/backoffice/api/webhooks/${webhook.id}/rotate-secret`, undefined],
      ['POST', '/backoffice/api/users', newUser],
      ['PATCH', `/backoffice/api/users/${colleague.id}`, { name: 'Renamed' }],
      ['DELETE', `/backoffice/api/users/${colleague.id}`, undefined],
      ['DELETE', `/backoffice/api/users/${colleague.id}/second-factors`, undefined],
      ['PATCH', '/backoffice/api/sign-in-settings', { second_factor_required: 'everyone' }],
      [
        'PUT',
        '/backoffice/api/me/password',
        { current_password: TEST_PASSWORD, new_password: 'another long passphrase' },
      ],
      ['POST', '/backoffice/api/me/totp', undefined],
      ['POST', '/backoffice/api/me/totp/confirm', { code: '123456' }],
      ['DELETE', '/backoffice/api/me/totp', undefined],
      ['POST', '/backoffice/api/me/passkeys/options', undefined],
      ['POST', '/backoffice/api/me/passkeys', { name: 'Phone', response: registration }],
      ['DELETE', '/backoffice/api/me/passkeys/00000000-0000-4000-8000-000000000000', undefined],
      ['POST', '/backoffice/api/me/recovery-codes', undefined],
      ['DELETE', '/backoffice/api/sessions', undefined],
    ] as const;
  }

  it('refuses every sensitive action with 403 reauthentication_required once the window has passed', async () => {
    const admin = await h.signedIn();
    const requests = await sensitiveRequests(admin);
    const trailBefore = (await admin.request('GET', '/backoffice/api/audit-events?limit=200')).json<{
      data: unknown[];
    }>().data.length;
    h.clock.advance(REAUTH_MS);
    const refused: string[] = [];
    for (const [method, url, body] of requests) {
      const response = await admin.request(method, url, body);
      if (response.statusCode === 403 && response.json<{ code: string }>().code === 'reauthentication_required')
        refused.push(`${method} ${url}`);
      else refused.push(`${method} ${url}: ${response.statusCode} ${response.body}`);
    }
    expect(refused).toEqual(requests.map(([method, url]) => `${method} ${url}`));
    const trailAfter = (await admin.request('GET', '/backoffice/api/audit-events?limit=200')).json<{
      data: unknown[];
    }>().data.length;
    expect(trailAfter).toBe(trailBefore);
  });

  it('lets the ordinary work go on: reading, disabling a key, a test delivery', async () => {
    const admin = await h.signedIn();
    const key = (await h.createKey(admin)).api_key;
    h.clock.advance(REAUTH_MS * 3);
    expect((await admin.request('GET', '/backoffice/api/api-keys')).statusCode).toBe(200);
    expect((await admin.request('PATCH', `/backoffice/api/api-keys/${key.id}`, { enabled: false })).statusCode).toBe(
      200,
    );
    expect((await admin.request('GET', '/backoffice/api/users')).statusCode).toBe(200);
  });

  it('renews the cookie and the CSRF token when a password re-authenticates, and opens the window again', async () => {
    const admin = await h.signedIn();
    h.clock.advance(REAUTH_MS + 1);
    expectProblem(
      await admin.request('POST', '/backoffice/api/api-keys', { name: 'k' }),
      403,
      'reauthentication_required',
    );
    const wrong = await admin.request('POST', '/backoffice/api/session/reauthenticate', {
      password: 'not the password',
    });
    expectProblem(wrong, 401, 'invalid_credentials');
    const renewed = await admin.request('POST', '/backoffice/api/session/reauthenticate', { password: TEST_PASSWORD });
    expect(renewed.statusCode).toBe(200);
    const body = renewed.json<{ csrf_token: string; reauthenticated_until: string }>();
    expect(body.csrf_token).not.toBe(admin.csrf);
    expect(Date.parse(body.reauthenticated_until)).toBe(h.clock.nowMs() + REAUTH_MS);
    const cookie = cookieFrom(renewed, 'airkey_session')!;
    expect(cookie).not.toBe(admin.cookie);
    // The old cookie is worth nothing now; the new one creates the key.
    expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    const created = await h.app.inject({
      method: 'POST',
      url: '/backoffice/api/api-keys',
      headers: { cookie, 'x-csrf-token': body.csrf_token },
      payload: { name: 'after re-authentication' },
    });
    expect(created.statusCode).toBe(201);
  });

  it('asks a user with a second factor for it, not the password', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    h.clock.advance(REAUTH_MS);
    const withPassword = await admin.request('POST', '/backoffice/api/session/reauthenticate', {
      password: TEST_PASSWORD,
    });
    expect(expectProblem(withPassword, 400, 'invalid_request').errors?.[0]?.path).toBe('method');
    const code = totpCode(secret, h.clock.nowMs());
    const renewed = await admin.request('POST', '/backoffice/api/session/reauthenticate', { method: 'totp', code });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json()).toMatchObject({ second_factor_methods: ['totp', 'recovery_code'] });
  });
});
