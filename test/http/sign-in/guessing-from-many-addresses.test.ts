import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { codeFrom, locksOf, passwordFrom, pendingFrom, THROUGH_PROXY } from '../../support/door-kit.ts';
import { expectProblem } from '../../support/problems.ts';
import { enrolTotp, totpCode } from '../../support/second-factors.ts';
import { SoftAuthenticator } from '../../support/soft-authenticator.ts';
import { useHarness } from '../../support/use.ts';

/** A code no authenticator shows now: the current step's and its neighbours' are avoided. */
function wrongCode(secret: string, atMs: number): string {
  const valid = new Set([-30_000, 0, 30_000].map((offset) => totpCode(secret, atMs + offset)));
  return ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code))!;
}

/**
 * Whoever holds a password guesses the code from address after address: the account's own count
 * (every client together) stops them, and an IPv6 /64 is one client however many addresses it has.
 */
describe('guessing from many addresses', () => {
  const h = useHarness({ config: THROUGH_PROXY });

  it('locks the second-factor step to everyone after 10 wrong codes from 12 addresses, audited once; a passkey still signs in', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const authenticator = new SoftAuthenticator('http://localhost');
    const creation = await admin.request('POST', '/backoffice/api/me/passkeys/options');
    const registered = authenticator.register(creation.json());
    expect(
      (await admin.request('POST', '/backoffice/api/me/passkeys', { name: 'Key', response: registered })).statusCode,
    ).toBe(201);

    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const client = `198.51.100.${i}`;
      const pending = await pendingFrom(h.app, client, admin.email, TEST_PASSWORD);
      const code = wrongCode(secret, h.clock.nowMs());
      statuses.push((await codeFrom(h.app, client, pending, { method: 'totp', code })).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);

    // The right code from an address never seen, and a recovery code, are refused until the quarter ends.
    const fresh = await pendingFrom(h.app, '203.0.113.9', admin.email, TEST_PASSWORD);
    const right = await codeFrom(h.app, '203.0.113.9', fresh, {
      method: 'totp',
      code: totpCode(secret, h.clock.nowMs()),
    });
    expectProblem(right, 429, 'too_many_requests');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    const recovery = await codeFrom(h.app, '203.0.113.9', fresh, { method: 'recovery_code', code: 'aaaa-bbbb-cccc' });
    expectProblem(recovery, 429, 'too_many_requests');

    // A passkey is not guessed: it still signs in.
    const options = await h.app.inject({ method: 'POST', url: '/backoffice/api/session/passkey/options' });
    const assertion = authenticator.assert(options.json<PublicKeyCredentialRequestOptionsJSON>());
    const byPasskey = await h.app.inject({
      method: 'POST',
      url: '/backoffice/api/session/passkey',
      payload: { response: assertion },
    });
    expect(byPasskey.statusCode).toBe(200);

    const locks = await locksOf(h, admin.userId);
    expect(locks).toHaveLength(1);
    expect(locks[0]!.detail).toMatchObject({ locked: 'second_factor', method: 'totp', address: '198.51.100.10' });

    h.clock.advance(15 * 60_000);
    const later = await pendingFrom(h.app, '203.0.113.9', admin.email, TEST_PASSWORD);
    const code = totpCode(secret, h.clock.nowMs());
    expect((await codeFrom(h.app, '203.0.113.9', later, { method: 'totp', code })).statusCode).toBe(200);
  });

  it('counts the addresses of one IPv6 /64 as one client, and distinct /64s apart', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['crew']);
    const inOne = (i: number) => `2001:db8:aa:1:${i.toString(16)}::${i}`;
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await passwordFrom(h.app, inOne(i), user.email, `wrong ${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // The /64 is refused whichever of its addresses asks, even with the right password.
    expectProblem(
      await passwordFrom(h.app, '2001:db8:aa:1:ffff::1', user.email, TEST_PASSWORD),
      429,
      'too_many_requests',
    );
    // Another /64, and an IPv4 client, are other clients: the account answers them.
    expect((await passwordFrom(h.app, '2001:db8:aa:2::1', user.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await passwordFrom(h.app, '192.0.2.44', user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('counts distinct /64s and IPv4 addresses as distinct clients, each with its own five', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['crew']);
    const clients = ['2001:db8:bb:1::1', '2001:db8:bb:2::1', '192.0.2.50', '192.0.2.51'];
    for (const client of clients) {
      for (let i = 0; i < 5; i++)
        expect((await passwordFrom(h.app, client, user.email, `wrong ${i}`)).statusCode).toBe(401);
      expectProblem(await passwordFrom(h.app, client, user.email, 'wrong again'), 429, 'too_many_requests');
    }
    expect((await passwordFrom(h.app, '2001:db8:bb:3::1', user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });
});
