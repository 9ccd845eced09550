import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Clock } from '../../shared/clock.ts';
import { PasskeysUnavailableError } from '../../shared/errors.ts';
import type { ChallengePurpose, ChallengeRow, PasskeyRepository, PasskeyRow } from './passkey-repository.ts';

/** Who the passkeys belong to: PUBLIC_URL's origin when set, else the origin the request came to. */
export type RelyingParty = { id: string; name: string; origin: string };

/** A challenge must be answered within this time (the browser's own timeout is a minute). */
const CHALLENGE_TTL_MS = 5 * 60_000;
const TIMEOUT_MS = 60_000;

/** WebAuthn's relying party: an IP address is not a valid RP ID, a host name (localhost too) is. */
export function relyingPartyOf(publicOrigin: string | undefined, requestOrigin: string): RelyingParty {
  const origin = publicOrigin ?? requestOrigin;
  const hostname = URL.canParse(origin) ? new URL(origin).hostname.replace(/^\[|\]$/g, '') : '';
  if (hostname === '' || isIP(hostname) !== 0) throw new PasskeysUnavailableError();
  return { id: hostname, name: 'airkey', origin: new URL(origin).origin };
}

export type PasskeysOptions = {
  repository: PasskeyRepository;
  clock: Clock;
};

/**
 * The two WebAuthn ceremonies with this server's rules: user verification required (a passkey is
 * then two factors by itself), resident keys required (a passkey can sign in without an e-mail),
 * and each challenge answered once, by the user and for the purpose it was issued to.
 */
export class Passkeys {
  private readonly options: PasskeysOptions;
  constructor(options: PasskeysOptions) {
    this.options = options;
  }

  async creationOptions(
    rp: RelyingParty,
    user: { id: string; email: string; name: string },
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.options.repository.listForUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(user.id),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.saveChallenge(options.challenge, 'register', user.id);
    return options;
  }

  /** The new credential, or null when the response does not verify (wrong challenge, origin, no user verification). */
  async verifyCreation(rp: RelyingParty, userId: string, response: RegistrationResponseJSON) {
    try {
      const challenge = await this.takeChallenge(response.response.clientDataJSON, 'register', userId);
      if (!challenge) return null;
      const verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
      if (!verified.verified) return null;
      const { credential, credentialBackedUp } = verified.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        backedUp: credentialBackedUp,
      };
    } catch {
      return null;
    }
  }

  /** Request options: for a known user their passkeys; for a passkey sign-in (user null) any discoverable one. */
  async requestOptions(
    rp: RelyingParty,
    purpose: Exclude<ChallengePurpose, 'register'>,
    userId: string | null,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const allowCredentials =
      userId === null
        ? []
        : (await this.options.repository.listForUser(userId)).map((passkey) => ({
            id: passkey.credentialId,
            transports: passkey.transports,
          }));
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials,
      timeout: TIMEOUT_MS,
      userVerification: 'required',
    });
    await this.saveChallenge(options.challenge, purpose, userId);
    return options;
  }

  /**
   * The passkey that signed this assertion, or null. `userId`: the user it must belong to (a
   * second factor or re-authentication); null for a passkey sign-in, where the passkey names the
   * user (and must be that of the user a challenge was issued to, if it was issued to one).
   */
  async verifyAssertion(
    rp: RelyingParty,
    purposes: ReadonlyArray<Exclude<ChallengePurpose, 'register'>>,
    userId: string | null,
    response: AuthenticationResponseJSON,
  ): Promise<PasskeyRow | null> {
    try {
      const issued = await this.takeChallengeRow(response.response.clientDataJSON);
      if (!issued || !(purposes as readonly string[]).includes(issued.purpose)) return null;
      if (userId !== null && issued.userId !== userId) return null;
      const passkey = await this.options.repository.findByCredentialId(response.id);
      if (!passkey || (issued.userId !== null && passkey.userId !== issued.userId)) return null;
      const challenge = issued.challenge;
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: true,
      });
      if (!verified.verified) return null;
      const { newCounter, credentialBackedUp } = verified.authenticationInfo;
      await this.options.repository.recordUse(passkey.id, newCounter, credentialBackedUp, this.options.clock.now());
      return passkey;
    } catch {
      // A malformed response, a bad signature, a counter that went backwards: not this user's passkey.
      return null;
    }
  }

  /** Housekeeping: challenges nobody answered in time. */
  async deleteExpiredChallenges(): Promise<void> {
    await this.options.repository.deleteExpiredChallenges(this.options.clock.now());
  }

  private async saveChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
    const expiresAt = new Date(this.options.clock.nowMs() + CHALLENGE_TTL_MS);
    await this.options.repository.saveChallenge({ challenge, purpose, userId, expiresAt });
  }

  /** Takes the challenge the browser signed, if it was issued for this purpose and user and is still fresh. */
  private async takeChallenge(
    clientDataJSON: string,
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<string | null> {
    const row = await this.takeChallengeRow(clientDataJSON);
    return row && row.purpose === purpose && row.userId === userId ? row.challenge : null;
  }

  /** The challenge the browser signed (read from its client data), taken so nobody answers it twice. */
  private async takeChallengeRow(clientDataJSON: string): Promise<ChallengeRow | null> {
    const clientData = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof clientData.challenge !== 'string') return null;
    const row = await this.options.repository.takeChallenge(clientData.challenge);
    return row && row.expiresAt.getTime() > this.options.clock.nowMs() ? row : null;
  }
}
