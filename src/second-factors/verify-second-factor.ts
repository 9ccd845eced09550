import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Clock } from '../shared/clock.ts';
import type { Passkeys, RelyingParty } from './passkeys/passkeys.ts';
import { matchingRecoveryCode } from './recovery-codes/recovery-codes.ts';
import type { RecoveryCodeRepository } from './recovery-codes/recovery-code-repository.ts';
import { stepOfCode } from './totp/totp.ts';
import type { TotpRepository } from './totp/totp-repository.ts';

/** What a person answers the second-factor step (or a re-authentication) with. */
export type SecondFactorProof =
  | { method: 'totp'; code: string }
  | { method: 'recovery_code'; code: string }
  | { method: 'passkey'; response: AuthenticationResponseJSON };

/** Opens sealed TOTP secrets (the instance's sealing key; the webhooks' secret box). */
export type Sealer = { seal(plaintext: string): string; open(sealed: string): string };

export type VerifierOptions = {
  totp: TotpRepository;
  recoveryCodes: RecoveryCodeRepository;
  passkeys: Passkeys;
  secrets: Sealer;
  clock: Clock;
};

/**
 * The one place a second factor is checked, whichever method was sent, for the sign-in step and
 * for re-authentication alike. Every method is single use across instances: a TOTP step is taken
 * with one conditional write, a recovery code and a passkey challenge with one delete. The caller
 * counts failures (the sign-in throttle) and audits; this only answers yes or no.
 */
export class SecondFactorVerifier {
  private readonly options: VerifierOptions;
  constructor(options: VerifierOptions) {
    this.options = options;
  }

  async verify(
    userId: string,
    proof: SecondFactorProof,
    purpose: 'second_factor' | 'reauthenticate',
    relyingParty: () => RelyingParty,
  ): Promise<boolean> {
    switch (proof.method) {
      case 'totp':
        return this.verifyTotp(userId, proof.code);
      case 'recovery_code':
        return this.useRecoveryCode(userId, proof.code);
      case 'passkey':
        return (
          (await this.options.passkeys.verifyAssertion(relyingParty(), [purpose], userId, proof.response)) !== null
        );
    }
  }

  private async verifyTotp(userId: string, code: string): Promise<boolean> {
    const { totp, secrets, clock } = this.options;
    const row = await totp.find(userId);
    if (!row?.secretSealed) return false;
    const step = stepOfCode(secrets.open(row.secretSealed), code, clock.nowMs());
    return step !== null && (await totp.takeStep(userId, step));
  }

  private async useRecoveryCode(userId: string, code: string): Promise<boolean> {
    const { recoveryCodes } = this.options;
    const match = await matchingRecoveryCode(await recoveryCodes.listForUser(userId), code);
    return match !== undefined && (await recoveryCodes.take(match.id));
  }
}
