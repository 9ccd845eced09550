import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';
import { useHarness } from '../support/use.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';

describe('sign-in throttling', () => {
  const h = useHarness();

  const signIn = (email: string, password: string, client: string) => h.signInAttempt(email, password, client);

  it('answers 429 with Retry-After after repeated wrong passwords, even for the right one, for that client only', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['system_administrator']);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await signIn(user.email, `wrong password ${i}`, '10.7.0.1')).statusCode);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    const blocked = await signIn(user.email, TEST_PASSWORD, '10.7.0.1');
    expectProblem(blocked, 429, 'too_many_requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.cookies).toEqual([]);
    expect((await signIn(user.email, TEST_PASSWORD, '10.7.0.2')).statusCode).toBe(200);
    // A failure's entry is written just after its answer (so an unknown account costs the same).
    await h.services.signIn.signIns.attemptsSettled();
    const failed = (await h.services.audit.list(SYSTEM_ACTOR, tenant.id, 50)).data.filter(
      (e) => e.action === 'user.sign_in_failed',
    );
    expect(failed.length).toBeGreaterThan(0);
    // The account is the target; whoever typed the password is not known to be its owner.
    expect(failed[0]).toMatchObject({
      actor: { type: 'user', id: null, email: user.email },
      target: { id: user.id },
      detail: { method: 'password', address: '10.7.0.1', user_agent: 'lightMyRequest' },
    });
  });

  it('blocks a client spraying many accounts after 100 failures in five minutes, whatever the accounts', async () => {
    for (let i = 0; i < 100; i++)
      expect((await signIn(`nobody-${i}@example.test`, 'wrong password', '10.7.1.1')).statusCode).toBe(401);
    const blocked = await signIn('nobody-100@example.test', 'wrong password', '10.7.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'too_many_requests' });
  }, 120_000);
});
