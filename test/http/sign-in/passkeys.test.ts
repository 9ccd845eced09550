import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD, type Session } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { cookieFrom, passwordStep, secondFactorStep } from '../../support/second-factors.ts';
import { SoftAuthenticator } from '../../support/soft-authenticator.ts';
import { useHarness } from '../../support/use.ts';

/** `inject` talks to http://localhost (light-my-request's default host): the relying party the server derives. */
const ORIGIN = 'http://localhost';

describe('passkeys', () => {
  const h = useHarness();

  const post = (url: string, payload?: unknown, cookie?: string): Promise<LightMyRequestResponse> =>
    h.app.inject({
      method: 'POST',
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  /** WebAuthn request options for a passkey sign-in (or, with a pending cookie, the second factor). */
  async function requestOptions(body?: unknown, cookie?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return (
      await post('/backoffice/api/session/passkey/options', body, cookie)
    ).json<PublicKeyCredentialRequestOptionsJSON>();
  }

  async function addPasskey(session: Session, authenticator = new SoftAuthenticator(ORIGIN)) {
    const options = await session.request('POST', '/backoffice/api/me/passkeys/options');
    expect(options.statusCode).toBe(200);
    const response = authenticator.register(options.json());
    const added = await session.request('POST', '/backoffice/api/me/passkeys', { name: 'Laptop', response });
    return { authenticator, added, response };
  }

  it('registers with user verification required and a resident key, shown with its name', async () => {
    const admin = await h.signedIn();
    const options = (await admin.request('POST', '/backoffice/api/me/passkeys/options')).json<{
      rp: { id: string };
      authenticatorSelection: { residentKey: string; userVerification: string };
    }>();
    expect(options.rp.id).toBe('localhost');
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const { added } = await addPasskey(admin);
    expect(added.statusCode).toBe(201);
    expect(added.headers['cache-control']).toBe('no-store');
    const body = added.json<{ passkey: { name: string }; recovery_codes: string[] }>();
    expect(body.passkey.name).toBe('Laptop');
    expect(body.recovery_codes).toHaveLength(10);
    const second = await addPasskey(admin);
    expect(second.added.json()).toMatchObject({ recovery_codes: null });
  });

  it('refuses a registration answered twice, or without user verification', async () => {
    const admin = await h.signedIn();
    const { response } = await addPasskey(admin);
    const replayed = await admin.request('POST', '/backoffice/api/me/passkeys', { name: 'Again', response });
    expect(expectProblem(replayed, 400, 'invalid_request').errors?.[0]?.path).toBe('response');
    const unverified = new SoftAuthenticator(ORIGIN, { userVerified: false });
    expectProblem((await addPasskey(admin, unverified)).added, 400, 'invalid_request');
  });

  it('signs in on its own, with no password, and each assertion works once', async () => {
    const admin = await h.signedIn();
    const { authenticator } = await addPasskey(admin);
    const options = await post('/backoffice/api/session/passkey/options');
    // Discoverable: no list of credentials, the authenticator offers this site's passkeys.
    expect(options.json<{ allowCredentials?: unknown[] }>().allowCredentials ?? []).toEqual([]);
    const assertion = authenticator.assert(options.json());
    const signedIn = await post('/backoffice/api/session/passkey', { response: assertion });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({
      user: { email: admin.email },
      second_factor_methods: ['passkey', 'recovery_code'],
    });
    expect(cookieFrom(signedIn, 'airkey_session')).toBeDefined();
    expectProblem(await post('/backoffice/api/session/passkey', { response: assertion }), 401, 'invalid_second_factor');
  });

  it('refuses a passkey nobody registered, and one without user verification', async () => {
    const stranger = new SoftAuthenticator(ORIGIN);
    const options = await requestOptions();
    expectProblem(
      await post('/backoffice/api/session/passkey', { response: stranger.assert(options) }),
      401,
      'invalid_second_factor',
    );

    const admin = await h.signedIn();
    const { authenticator } = await addPasskey(admin);
    const again = await requestOptions();
    const unverified = authenticator.assert(again, { userVerified: false });
    expectProblem(
      await post('/backoffice/api/session/passkey', { response: unverified }),
      401,
      'invalid_second_factor',
    );
  });

  it('answers the second-factor step after a password, but only with that user’s own passkey', async () => {
    const alice = await h.signedIn();
    const { authenticator: alices } = await addPasskey(alice);
    const bob = await h.signedIn();
    const { authenticator: bobs } = await addPasskey(bob);

    const pending = await passwordStep(h, alice.email, TEST_PASSWORD);
    const options = (
      await post('/backoffice/api/session/passkey/options', { purpose: 'second_factor' }, pending)
    ).json<{
      allowCredentials: Array<{ id: string }>;
    }>();
    expect(options.allowCredentials.map((c) => c.id)).toEqual([alices.id]);
    const foreign = await secondFactorStep(h, pending, { method: 'passkey', response: bobs.assert(options as never) });
    expectProblem(foreign, 401, 'invalid_second_factor');
    const again = await requestOptions({ purpose: 'second_factor' }, pending);
    const done = await secondFactorStep(h, pending, { method: 'passkey', response: alices.assert(again) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ user: { email: alice.email } });
  });

  it('is unavailable when the back office is reached by an IP address, which cannot be a relying party', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/backoffice/api/session/passkey/options',
      headers: { host: '127.0.0.1:3000' },
    });
    expect(expectProblem(response, 409, 'passkeys_unavailable').detail).toMatch(/localhost|PUBLIC_URL/);
  });

  it('is removed by its owner, and the last factor stays while the tenant requires one', async () => {
    const admin = await h.signedIn();
    const { added } = await addPasskey(admin);
    const { id } = added.json<{ passkey: { id: string } }>().passkey;
    const settings = await admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      second_factor_required: 'everyone',
    });
    expect(settings.statusCode).toBe(200);
    expectProblem(await admin.request('DELETE', `/backoffice/api/me/passkeys/${id}`), 409, 'second_factor_required');
    await admin.request('PATCH', '/backoffice/api/sign-in-settings', { second_factor_required: 'none' });
    expect((await admin.request('DELETE', `/backoffice/api/me/passkeys/${id}`)).statusCode).toBe(204);
    const security = await admin.request('GET', '/backoffice/api/me/security');
    expect(security.json()).toMatchObject({ second_factors: { passkeys: [], recovery_codes_left: 0 } });
  });
});
