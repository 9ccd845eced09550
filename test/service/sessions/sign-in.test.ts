import { describe, expect, it } from 'vitest';
import { InvalidCredentialsError, InvalidSecondFactorError, TooManyRequestsError } from '../../../src/shared/errors.ts';
import { signedInAs, tenantWithUser } from '../../support/actors.ts';
import { ENGINES } from '../../support/databases.ts';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { START } from '../../support/manual-clock.ts';
import { rowsOf } from '../../support/rows.ts';
import { totpCode } from '../../support/second-factors.ts';
import { useHarness } from '../../support/use.ts';

const client = (address = '198.51.100.7') => ({ address, userAgent: 'service test' });
const NOT_CALLED = () => {
  throw new Error('no passkey in these tests');
};

/**
 * The sign-in service on its own (docs/sign-in.md): what a password and a second factor lead to,
 * without HTTP. The harness's clock is injected: windows pass by moving it, never by waiting.
 */
describe.each(ENGINES)('sign-in service (%s)', (engine) => {
  const h = useHarness({ engine, now: START, rewindClock: true });
  const signIn = () => h.services.signIn;

  async function userWithTotp() {
    const { actor } = await tenantWithUser(h, ['crew']);
    const { secret } = await signIn().secondFactors.beginTotp(actor);
    const { recovery_codes } = await signIn().secondFactors.confirmTotp(actor, totpCode(secret, h.clock.nowMs()));
    // The confirming code's step is used up.
    h.clock.advance(30_000);
    return { actor, secret, recoveryCodes: recovery_codes! };
  }

  async function pendingFor(email: string, address?: string) {
    const outcome = await signIn().signIns.signInWithPassword(email, TEST_PASSWORD, client(address));
    if (outcome.kind !== 'second_factor') throw new Error(`expected a second-factor step, got ${outcome.kind}`);
    return outcome;
  }

  it('opens a session for a right password when the user has no second factor', async () => {
    const { actor } = await tenantWithUser(h, ['crew']);
    const outcome = await signIn().signIns.signInWithPassword(
      ` ${actor.email.toUpperCase()} `,
      TEST_PASSWORD,
      client(),
    );
    expect(outcome.kind).toBe('signed_in');
    const session = outcome.kind === 'signed_in' ? outcome.session : undefined;
    expect(session?.token).toMatch(/\S{20,}/);
    expect(await signIn().sessions.resolve(session!.token)).toMatchObject({
      state: 'live',
      session: { actor: { id: actor.id } },
    });
  });

  it('refuses a wrong password and an unknown account alike', async () => {
    const { actor } = await tenantWithUser(h, ['crew']);
    await expect(signIn().signIns.signInWithPassword(actor.email, 'not the password', client())).rejects.toThrow(
      InvalidCredentialsError,
    );
    await expect(signIn().signIns.signInWithPassword('nobody@example.test', TEST_PASSWORD, client())).rejects.toThrow(
      InvalidCredentialsError,
    );
  });

  it('asks a user with TOTP for the second factor, and takes each TOTP code once', async () => {
    const { actor, secret } = await userWithTotp();
    const first = await pendingFor(actor.email);
    expect(first.step.methods).toContain('totp');
    const code = totpCode(secret, h.clock.nowMs());
    const session = await signIn().signIns.completeSecondFactor(
      first.token,
      { method: 'totp', code },
      client(),
      NOT_CALLED,
    );
    expect(session.user.id).toBe(actor.id);

    const second = await pendingFor(actor.email);
    await expect(
      signIn().signIns.completeSecondFactor(second.token, { method: 'totp', code }, client(), NOT_CALLED),
    ).rejects.toThrow(InvalidSecondFactorError);
    // The next step's code is a new one, and it is taken.
    h.clock.advance(30_000);
    const next = { method: 'totp' as const, code: totpCode(secret, h.clock.nowMs()) };
    await expect(
      signIn().signIns.completeSecondFactor(second.token, next, client(), NOT_CALLED),
    ).resolves.toMatchObject({
      user: { id: actor.id },
    });
  });

  it('takes a recovery code once', async () => {
    const { actor, recoveryCodes } = await userWithTotp();
    const proof = { method: 'recovery_code' as const, code: recoveryCodes[0]! };
    const first = await pendingFor(actor.email);
    await expect(
      signIn().signIns.completeSecondFactor(first.token, proof, client(), NOT_CALLED),
    ).resolves.toMatchObject({
      user: { id: actor.id },
    });
    const second = await pendingFor(actor.email);
    await expect(signIn().signIns.completeSecondFactor(second.token, proof, client(), NOT_CALLED)).rejects.toThrow(
      InvalidSecondFactorError,
    );
    expect(
      await signIn().secondFactors.overview(signedInAs((await rowsOf(h.services).users.findById(actor.id))!)),
    ).toMatchObject({ recovery_codes_left: recoveryCodes.length - 1 });
  });

  it('locks an account for a client after five wrong passwords, until the quarter hour has passed', async () => {
    const { actor } = await tenantWithUser(h, ['crew']);
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(signIn().signIns.signInWithPassword(actor.email, 'wrong', client())).rejects.toThrow(
        InvalidCredentialsError,
      );
    }
    // Locked: the right password is refused too, and says when to come back.
    const locked = signIn().signIns.signInWithPassword(actor.email, TEST_PASSWORD, client());
    await expect(locked).rejects.toThrow(TooManyRequestsError);
    h.clock.advance(15 * 60_000 + 1_000);
    await expect(signIn().signIns.signInWithPassword(actor.email, TEST_PASSWORD, client())).resolves.toMatchObject({
      kind: 'signed_in',
    });
  });

  it('locks the second-factor step for the account after ten wrong codes, from any client', async () => {
    const { actor, secret } = await userWithTotp();
    for (let attempt = 0; attempt < 10; attempt++) {
      const pending = await pendingFor(actor.email, `198.51.100.${attempt + 10}`);
      const wrong = { method: 'totp' as const, code: '000000' };
      await expect(
        signIn().signIns.completeSecondFactor(pending.token, wrong, client(`198.51.100.${attempt + 10}`), NOT_CALLED),
      ).rejects.toThrow(InvalidSecondFactorError);
    }
    const pending = await pendingFor(actor.email, '198.51.100.99');
    const right = { method: 'totp' as const, code: totpCode(secret, h.clock.nowMs()) };
    await expect(
      signIn().signIns.completeSecondFactor(pending.token, right, client('198.51.100.99'), NOT_CALLED),
    ).rejects.toThrow(TooManyRequestsError);
  });
});
