import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { cookieFrom, enrolTotp, passwordStep, secondFactorStep, totpCode } from '../../support/second-factors.ts';
import { useHarness } from '../../support/use.ts';

describe('an authenticator app as a second factor', () => {
  const h = useHarness();

  it('is added with a code from the app, and the first factor comes with ten recovery codes shown once', async () => {
    const admin = await h.signedIn();
    const begun = await admin.request('POST', '/backoffice/api/me/totp');
    expect(begun.statusCode).toBe(200);
    expect(begun.headers['cache-control']).toBe('no-store');
    const { secret, otpauth_uri } = begun.json<{ secret: string; otpauth_uri: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/airkey:.+\?.*secret=/);

    const wrong = await admin.request('POST', '/backoffice/api/me/totp/confirm', { code: '000000' });
    expect(expectProblem(wrong, 400, 'invalid_second_factor').errors).toEqual([
      { path: 'code', message: expect.any(String) as string },
    ]);
    const confirmed = await admin.request('POST', '/backoffice/api/me/totp/confirm', {
      code: totpCode(secret, h.clock.nowMs()),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.headers['cache-control']).toBe('no-store');
    const codes = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

    const security = (await admin.request('GET', '/backoffice/api/me/security')).json<{
      second_factors: { totp: boolean; recovery_codes_left: number };
    }>();
    expect(security.second_factors).toMatchObject({ totp: true, recovery_codes_left: 10 });
  });

  it('turns the password into a step: a pending cookie that opens only the second-factor endpoints', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const response = await h.signInAttempt(admin.email, TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ second_factor_required: true, methods: ['totp', 'recovery_code'] });
    expect(cookieFrom(response, 'airkey_session')).toBeUndefined();
    const pending = cookieFrom(response, 'airkey_pending')!;
    expect(response.cookies.find((c) => c.name === 'airkey_pending')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/backoffice/api/session',
    });

    for (const [method, url] of [
      ['GET', '/backoffice/api/session'],
      ['GET', '/backoffice/api/api-keys'],
      ['GET', '/backoffice/api/me/security'],
    ] as const) {
      expectProblem(await h.app.inject({ method, url, headers: { cookie: pending } }), 401, 'not_authenticated');
    }

    const done = await secondFactorStep(h, pending, { method: 'totp', code: totpCode(secret, h.clock.nowMs()) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      user: { email: admin.email },
      second_factor_methods: ['totp', 'recovery_code'],
    });
    const session = cookieFrom(done, 'airkey_session')!;
    const me = await h.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: session } });
    expect(me.statusCode).toBe(200);
  });

  it('accepts a code once: the same code again is refused, even on a new sign-in', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const code = totpCode(secret, h.clock.nowMs());
    const first = await secondFactorStep(h, await passwordStep(h, admin.email, TEST_PASSWORD), {
      method: 'totp',
      code,
    });
    expect(first.statusCode).toBe(200);
    const pending = await passwordStep(h, admin.email, TEST_PASSWORD);
    expectProblem(await secondFactorStep(h, pending, { method: 'totp', code }), 401, 'invalid_second_factor');
    // An earlier step's code is refused too once a later one was used.
    const earlier = totpCode(secret, h.clock.nowMs() - 30_000);
    expectProblem(await secondFactorStep(h, pending, { method: 'totp', code: earlier }), 401, 'invalid_second_factor');
  });

  it('accepts the codes of the adjacent steps (a phone clock 30 s off), but not two steps away', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    h.clock.advance(120_000);
    const twoAhead = totpCode(secret, h.clock.nowMs() + 60_000);
    const pending = await passwordStep(h, admin.email, TEST_PASSWORD);
    expectProblem(await secondFactorStep(h, pending, { method: 'totp', code: twoAhead }), 401, 'invalid_second_factor');
    const oneBehind = totpCode(secret, h.clock.nowMs() - 30_000);
    expect((await secondFactorStep(h, pending, { method: 'totp', code: oneBehind })).statusCode).toBe(200);
    h.clock.advance(120_000);
    const oneAhead = totpCode(secret, h.clock.nowMs() + 30_000);
    const again = await passwordStep(h, admin.email, TEST_PASSWORD);
    expect((await secondFactorStep(h, again, { method: 'totp', code: oneAhead })).statusCode).toBe(200);
  });

  it('keeps the pending step through wrong codes for five minutes, then refuses it', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const pending = await passwordStep(h, admin.email, TEST_PASSWORD, '10.44.0.1');
    expectProblem(
      await secondFactorStep(h, pending, { method: 'totp', code: '123456' }, '10.44.0.1'),
      401,
      'invalid_second_factor',
    );
    h.clock.advance(4 * 60_000);
    const right = { method: 'totp', code: totpCode(secret, h.clock.nowMs()) };
    expect((await secondFactorStep(h, pending, right, '10.44.0.1')).statusCode).toBe(200);
    // Used: the same pending cookie opens nothing more.
    expectProblem(await secondFactorStep(h, pending, right, '10.44.0.1'), 401, 'not_authenticated');

    const later = await passwordStep(h, admin.email, TEST_PASSWORD, '10.44.0.2');
    h.clock.advance(5 * 60_000 + 1);
    const late = { method: 'totp', code: totpCode(secret, h.clock.nowMs()) };
    expectProblem(await secondFactorStep(h, later, late, '10.44.0.2'), 401, 'not_authenticated');
  });

  it('lets a recovery code stand in for the app, once', async () => {
    const admin = await h.signedIn();
    const { recoveryCodes } = await enrolTotp(h, admin);
    const code = recoveryCodes[3]!.toLowerCase().replaceAll('-', ' ');
    const pending = await passwordStep(h, admin.email, TEST_PASSWORD);
    const done = await secondFactorStep(h, pending, { method: 'recovery_code', code });
    expect(done.statusCode).toBe(200);
    const again = await passwordStep(h, admin.email, TEST_PASSWORD);
    expectProblem(await secondFactorStep(h, again, { method: 'recovery_code', code }), 401, 'invalid_second_factor');
    const session = { cookie: cookieFrom(done, 'airkey_session')! };
    const left = await h.app.inject({ method: 'GET', url: '/backoffice/api/me/security', headers: session });
    expect(left.json()).toMatchObject({ second_factors: { recovery_codes_left: 9 } });
  });

  it('audits each step with its method, address and browser, never the code', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const client = '10.44.1.9';
    const pending = await passwordStep(h, admin.email, TEST_PASSWORD, client);
    await secondFactorStep(h, pending, { method: 'totp', code: '999999' }, client);
    // A failure's entry is written just after its answer: in the trail before the next attempt's.
    await h.services.signIn.signIns.attemptsSettled();
    const code = totpCode(secret, h.clock.nowMs());
    await secondFactorStep(h, pending, { method: 'totp', code }, client);
    const trail = (await admin.request('GET', '/backoffice/api/audit-events?limit=10')).json<{
      data: Array<{ action: string; detail: Record<string, unknown> }>;
    }>().data;
    expect(trail.slice(0, 3).map((event) => [event.action, event.detail.method, event.detail.address])).toEqual([
      ['user.signed_in', 'totp', client],
      ['user.sign_in_failed', 'totp', client],
      ['user.second_factor_added', 'totp', undefined],
    ]);
    expect(JSON.stringify(trail)).not.toContain(code);
    expect(JSON.stringify(trail)).not.toContain(secret);
    // Nor in any log line, nor is the secret stored in clear.
    expect(h.logs.join('\n')).not.toContain(secret);
    const stored = await h.services.database.db.execute(sql`select secret_sealed from totp_factors`);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });
});
