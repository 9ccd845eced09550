import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';

const PROXY = '10.0.0.1';

/**
 * docs/keys.md (IP allowlists): every part of airkey agrees on who the client is. Behind a trusted proxy, the back
 * office's own address endpoint, the sign-in audit, the leak report's audit and the session
 * cookie's Secure flag all follow the same walk; an untrusted peer's headers change none of them.
 */
describe('one client address for the whole server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ config: { trustedProxies: ['10.0.0.0/8'] } });
  });
  afterAll(async () => h.close());

  const signInFrom = (email: string, peer: string, headers: Record<string, string>) =>
    h.signInAttempt(email, 'a-long-test-password', peer, headers);
  // Over https the cookie carries the __Host- prefix (docs/sign-in.md (Sessions)).
  const cookieOf = (response: LightMyRequestResponse) =>
    response.cookies.find((c) => c.name === 'airkey_session' || c.name === '__Host-airkey_session');

  it('tells a signed-in caller their own address as the key check sees it, and nobody else anything', async () => {
    const admin = await h.signedIn();
    const ask = (peer: string, forwardedFor: string) =>
      h.app.inject({
        url: '/backoffice/api/client-address',
        remoteAddress: peer,
        headers: { cookie: admin.cookie, 'x-forwarded-for': forwardedFor },
      });
    expect((await ask(PROXY, '203.0.113.5, 2001:DB8::7')).json()).toEqual({ address: '2001:db8::7' });
    expect((await ask('198.51.100.1', '203.0.113.5')).json()).toEqual({ address: '198.51.100.1' });
    expect((await ask('::ffff:198.51.100.2', '203.0.113.5')).json()).toEqual({ address: '198.51.100.2' });
    expectProblem(await h.app.inject({ url: '/backoffice/api/client-address' }), 401, 'not_authenticated');
  });

  it('records sign-ins and leak reports under the derived client, not the proxy or a spoofed entry', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['system_administrator']);
    const signedIn = await signInFrom(user.email, PROXY, { 'x-forwarded-for': '198.51.100.66, 203.0.113.9' });
    expect(signedIn.statusCode).toBe(200);
    const session = await h.signIn(user.email);
    const { secret } = await h.createKey(session);
    const report = await h.app.inject({
      method: 'POST',
      url: '/api/v1/leaked-keys',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': '203.0.113.10', 'user-agent': 'scanner/2.0' },
      payload: { keys: [secret] },
    });
    expect(report.statusCode).toBe(202);
    const trail = (await h.services.audit.list(SYSTEM_ACTOR, tenant.id, 50)).data;
    // Newest first: the first sign-in is the one through the proxy, the second the harness's own.
    const signIns = trail.filter((e) => e.action === 'user.signed_in').map((e) => e.detail.address);
    expect(signIns).toEqual(['127.0.0.1', '203.0.113.9']);
    expect(trail.find((e) => e.action === 'api_key.leaked')?.detail).toMatchObject({
      reporter_address: '203.0.113.10',
    });
  });

  it('marks the session cookie Secure when the trusted proxy says it terminated https, and only then', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['operations']);
    const https = { 'x-forwarded-proto': 'https' };
    expect(cookieOf(await signInFrom(user.email, PROXY, https))).toMatchObject({
      name: '__Host-airkey_session',
      secure: true,
      path: '/',
    });
    expect(cookieOf(await signInFrom(user.email, PROXY, { 'x-forwarded-proto': 'https, http' }))?.secure).toBeFalsy();
    expect(cookieOf(await signInFrom(user.email, '198.51.100.1', https))?.secure).toBeFalsy();
    expect(cookieOf(await signInFrom(user.email, PROXY, {}))?.secure).toBeFalsy();
  });
});
