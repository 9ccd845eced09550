import { describe, expect, it } from 'vitest';
import {
  InvalidEnrolmentCodeError,
  InvalidRequestError,
  InvalidSecondFactorError,
} from '../../../src/shared/errors.ts';
import { signedInAs, tenantWithUser } from '../../support/actors.ts';
import { rowsOf } from '../../support/rows.ts';
import { ENGINES } from '../../support/databases.ts';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { START } from '../../support/manual-clock.ts';
import { totpCode } from '../../support/second-factors.ts';
import { useHarness } from '../../support/use.ts';

const client = { address: '203.0.113.5', userAgent: 'service test' };
const NOT_CALLED = () => {
  throw new Error('no passkey in these tests');
};

/**
 * The second-factor service on its own (docs/sign-in.md): enrolment, recovery codes and a reset,
 * and what each does to the next sign-in. The clock is the harness's, moved by the test.
 */
describe.each(ENGINES)('second-factor service (%s)', (engine) => {
  const h = useHarness({ engine, now: START, rewindClock: true });
  const factors = () => h.services.signIn.secondFactors;

  it('adds an authenticator app only with a code from it, and hands out ten recovery codes once', async () => {
    const { actor } = await tenantWithUser(h, ['crew']);
    const { secret, otpauth_uri } = await factors().beginTotp(actor);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    await expect(factors().confirmTotp(actor, '000000')).rejects.toThrow(InvalidEnrolmentCodeError);
    const { recovery_codes } = await factors().confirmTotp(actor, totpCode(secret, h.clock.nowMs()));
    expect(recovery_codes).toHaveLength(10);
    expect(await factors().overview(actor)).toEqual({ totp: true, passkeys: [], recovery_codes_left: 10 });
  });

  it('refuses recovery codes to a user without a second factor', async () => {
    const { actor } = await tenantWithUser(h, ['crew']);
    await expect(factors().regenerateRecoveryCodes(actor)).rejects.toThrow(InvalidRequestError);
  });

  it('makes the old recovery codes stop working when new ones are made', async () => {
    const { actor } = await tenantWithUser(h, ['crew']);
    const { secret } = await factors().beginTotp(actor);
    const old = (await factors().confirmTotp(actor, totpCode(secret, h.clock.nowMs()))).recovery_codes!;
    const fresh = (await factors().regenerateRecoveryCodes(actor)).recovery_codes;
    const step = await h.services.signIn.signIns.signInWithPassword(actor.email, TEST_PASSWORD, client);
    if (step.kind !== 'second_factor') throw new Error('expected a second-factor step');
    const complete = (code: string) =>
      h.services.signIn.signIns.completeSecondFactor(step.token, { method: 'recovery_code', code }, client, NOT_CALLED);
    await expect(complete(old[0]!)).rejects.toThrow(InvalidSecondFactorError);
    await expect(complete(fresh[0]!)).resolves.toMatchObject({ user: { id: actor.id } });
  });

  it('signs a user in with the password alone once an administrator has reset their factors', async () => {
    const { tenant, actor: admin } = await tenantWithUser(h);
    const user = await h.user(tenant.id, ['crew']);
    const member = signedInAs((await rowsOf(h.services).users.findById(user.id))!);
    const { secret } = await factors().beginTotp(member);
    await factors().confirmTotp(member, totpCode(secret, h.clock.nowMs()));
    await factors().resetForUser(admin, tenant.id, user.id);
    expect(await factors().overview(member)).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
    await expect(
      h.services.signIn.signIns.signInWithPassword(member.email, TEST_PASSWORD, client),
    ).resolves.toMatchObject({ kind: 'signed_in' });
  });
});
