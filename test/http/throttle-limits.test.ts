import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/use.ts';
import { TEST_PASSWORD } from '../support/harness.ts';
import { unknownKey } from '../support/keys.ts';
import { apiFrom, expectProblem } from '../support/problems.ts';

/**
 * The throttle limits as built in src/app/services.ts, pinned over HTTP: failed key checks 20 a
 * minute per client, failed sign-ins 5 in 5 minutes per client and account. The failures up to
 * the limit are answered; the next attempt is refused.
 */
describe('throttle limits over HTTP', () => {
  const h = useHarness();

  it('answers 20 bad keys in a minute with 401 api_key_invalid and the 21st with 429 and Retry-After', async () => {
    const client = '10.20.0.1';
    const bad = (i: number) => unknownKey(String.fromCharCode(65 + i));
    for (let i = 0; i < 20; i++)
      expectProblem(await apiFrom(h, client, bad(i), '/api/v1/whoami'), 401, 'api_key_invalid');
    const blocked = await apiFrom(h, client, bad(20), '/api/v1/whoami');
    expectProblem(blocked, 429, 'too_many_requests');
    expect(blocked.headers['retry-after']).toBe('60');
  });

  it('answers 5 wrong passwords in 15 minutes with 401 invalid_credentials and the 6th with 429 until the window ends', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['system_administrator']);
    const client = '10.20.1.1';
    for (let i = 0; i < 5; i++)
      expectProblem(await h.signInAttempt(user.email, `wrong password ${i}`, client), 401, 'invalid_credentials');
    const blocked = await h.signInAttempt(user.email, TEST_PASSWORD, client);
    expectProblem(blocked, 429, 'too_many_requests');
    // The rest of the 15-minute window that the first failure opened.
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(840);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);
  });
});
