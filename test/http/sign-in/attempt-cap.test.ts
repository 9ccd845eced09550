import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { enrolTotp, passwordStep, secondFactorStep, totpCode } from '../../support/second-factors.ts';
import { useHarness } from '../../support/use.ts';

describe('the attempt cap: wrong passwords and wrong second factors count together', () => {
  const h = useHarness();

  it('refuses the account to that client for the rest of 15 minutes after 5 failures of either kind', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const client = '10.45.0.1';
    expectProblem(await h.signInAttempt(admin.email, 'wrong password 1', client), 401, 'invalid_credentials');
    expectProblem(await h.signInAttempt(admin.email, 'wrong password 2', client), 401, 'invalid_credentials');
    // A right password does not reset the count: the code is what is being guessed now.
    const pending = await passwordStep(h, admin.email, TEST_PASSWORD, client);
    for (const code of ['000001', '000002', '000003']) {
      expectProblem(await secondFactorStep(h, pending, { method: 'totp', code }, client), 401, 'invalid_second_factor');
    }
    const right = { method: 'totp', code: totpCode(secret, h.clock.nowMs()) };
    const capped = await secondFactorStep(h, pending, right, client);
    expectProblem(capped, 429, 'too_many_requests');
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(capped.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expectProblem(await h.signInAttempt(admin.email, TEST_PASSWORD, client), 429, 'too_many_requests');

    // Another client, and another account from this client, are not affected.
    expect((await h.signInAttempt(admin.email, TEST_PASSWORD, '10.45.0.2')).statusCode).toBe(200);
    const colleague = await h.user(admin.tenantId, ['crew']);
    expect((await h.signInAttempt(colleague.email, TEST_PASSWORD, client)).statusCode).toBe(200);
  });

  it('counts a failed re-authentication too', async () => {
    const admin = await h.signedIn();
    for (let i = 0; i < 5; i++) {
      const wrong = await admin.request('POST', '/backoffice/api/session/reauthenticate', { password: `wrong ${i}` });
      expectProblem(wrong, 401, 'invalid_credentials');
    }
    const right = await admin.request('POST', '/backoffice/api/session/reauthenticate', { password: TEST_PASSWORD });
    expectProblem(right, 429, 'too_many_requests');
  });
});
