import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { hasSecondFactor, secondFactorMethods } from '../second-factors/factor-flags.ts';
import type { RelyingParty } from '../second-factors/passkeys/passkeys.ts';
import type { SecondFactorProof } from '../second-factors/verify-second-factor.ts';
import type { UserActor } from '../shared/actor.ts';
import { randomToken, sha256Hex } from '../shared/digest.ts';
import {
  InvalidCredentialsError,
  InvalidRequestError,
  InvalidSecondFactorError,
  NotAuthenticatedError,
  SsoRequiredError,
  TooManyRequestsError,
} from '../shared/errors.ts';
import { verifyPassword } from '../users/password.ts';
import type { UserWithTenant } from '../users/user-repository.ts';
import type { SignInMethod } from './session-rules.ts';
import type { ReauthenticateBody } from './session-schemas.ts';
import type { OpenedSession } from './session-service.ts';
import { clientKey } from '../throttle/client-key.ts';
import { signInDetail, userTarget, type ClientContext } from './sign-in-audit.ts';
import type { PasswordSignIn, SignInServiceOptions } from './sign-in-service-options.ts';

export type { PasswordSignIn, SignInServiceOptions } from './sign-in-service-options.ts';

/** The second-factor step must be completed this soon after the password. */
const PENDING_TTL_MS = 5 * 60_000;

/**
 * How a person proves who they are (docs/sign-in.md), the order of checks said once per way in:
 * throttle, credentials, the tenant's sign-in rule, then a session or the second-factor step.
 * Every attempt is audited with its method, address and browser; every password and code is checked
 * through `SignInAttempts`, which counts it first (per account and client, per account, per client).
 */
export class SignInService {
  private readonly options: SignInServiceOptions;
  constructor(options: SignInServiceOptions) {
    this.options = options;
  }

  async signInWithPassword(email: string, password: string, client: ClientContext): Promise<PasswordSignIn> {
    const account = email.trim().toLowerCase();
    const user = await this.options.users.findByEmail(account);
    // An unknown account costs what a known one does: a hash verified, the same counts taken.
    const verify = () => verifyPassword(user?.passwordHash ?? null, password);
    const accepted = await this.options.attempts.check({ account, user, method: 'password', client }, verify);
    if (!accepted || !user) throw new InvalidCredentialsError();
    // Judged after the password, so the answer says nothing about an account to whoever lacks it.
    const tenant = await this.requirePasswordSignIn(user, client, 'password');
    const factors = await this.options.flags.flagsOf(user.id);
    if (!hasSecondFactor(factors)) {
      return {
        kind: 'signed_in',
        session: await this.options.sessions.open(user, 'password', client, factors, tenant),
      };
    }
    const token = randomToken(32, this.options.random);
    const expiresAt = new Date(this.options.clock.nowMs() + PENDING_TTL_MS);
    await this.options.pending.insert({ tokenDigest: sha256Hex(token), userId: user.id, expiresAt });
    return {
      kind: 'second_factor',
      step: { second_factor_required: true, methods: secondFactorMethods(factors) },
      token,
      expiresAt,
    };
  }

  /** The second-factor step of a password sign-in; the pending cookie stays valid through wrong answers. */
  async completeSecondFactor(
    pendingToken: string,
    proof: SecondFactorProof,
    client: ClientContext,
    relyingParty: () => RelyingParty,
  ): Promise<OpenedSession> {
    const pending = await this.livePending(pendingToken);
    const user = await this.options.users.findById(pending.userId);
    if (!user) throw new NotAuthenticatedError();
    const attempt = { account: user.email, user, method: proof.method, client };
    const verify = () => this.options.verifier.verify(user.id, proof, 'second_factor', relyingParty);
    if (!(await this.options.attempts.check(attempt, verify))) throw new InvalidSecondFactorError();
    // Two racing completions of one pending sign-in open one session.
    if (!(await this.options.uow.inTransaction((tx) => this.options.pending.take(tx, pending.id)))) {
      throw new NotAuthenticatedError();
    }
    const tenant = await this.requirePasswordSignIn(user, client, proof.method);
    const factors = await this.options.flags.flagsOf(user.id);
    return this.options.sessions.open(user, proof.method, client, factors, tenant);
  }

  /**
   * WebAuthn request options: for re-authentication (a session), the second-factor step (a pending
   * sign-in) or a passkey sign-in (nobody yet: any discoverable passkey of this site).
   */
  async passkeyOptions(
    who: { actor?: UserActor | undefined; pendingToken?: string | undefined },
    purpose: 'sign_in' | 'second_factor' | 'reauthenticate' | undefined,
    relyingParty: RelyingParty,
    client: ClientContext,
  ) {
    await this.admitPreSessionWork(client);
    const chosen = purpose ?? (who.actor ? 'reauthenticate' : who.pendingToken ? 'second_factor' : 'sign_in');
    if (chosen === 'reauthenticate') {
      if (!who.actor) throw new NotAuthenticatedError();
      return this.options.passkeys.requestOptions(relyingParty, chosen, who.actor.id);
    }
    if (chosen === 'second_factor') {
      const pending = await this.livePending(who.pendingToken ?? '');
      return this.options.passkeys.requestOptions(relyingParty, chosen, pending.userId);
    }
    return this.options.passkeys.requestOptions(relyingParty, 'sign_in', null);
  }

  /**
   * Work done for whoever asks, before anyone is known (a challenge row, an SSO flow and its
   * provider's discovery): every call spends a point of the client's, as failed key checks do.
   */
  async admitPreSessionWork(client: ClientContext): Promise<void> {
    const { preSessionWork } = this.options;
    const from = clientKey(client.address);
    if (!(await preSessionWork.tryTake(from)))
      throw new TooManyRequestsError(Math.max(1, preSessionWork.knownBlockSeconds(from)));
  }

  /** A passkey alone: phishing-resistant, and with user verification two factors by itself. */
  async signInWithPasskey(
    response: AuthenticationResponseJSON,
    client: ClientContext,
    relyingParty: RelyingParty,
  ): Promise<OpenedSession> {
    const { sprayThrottle, passkeys, users } = this.options;
    const sprayed = await sprayThrottle.retryAfter(clientKey(client.address));
    if (sprayed > 0) throw new TooManyRequestsError(sprayed);
    // A challenge issued for a pending second factor may sign in too: the same user's passkey.
    const passkey = await passkeys.verifyAssertion(relyingParty, ['sign_in', 'second_factor'], null, response);
    const user = passkey ? await users.findById(passkey.userId) : undefined;
    if (!user) {
      await sprayThrottle.recordFailure(clientKey(client.address));
      throw new InvalidSecondFactorError();
    }
    await this.refuseWhileThrottled(client, user.email);
    const tenant = await this.requirePasswordSignIn(user, client, 'passkey');
    return this.options.sessions.open(user, 'passkey', client, await this.options.flags.flagsOf(user.id), tenant);
  }

  /**
   * Proves it is still the same person before a sensitive action: with a second factor when the
   * user has one (a password alone would undo what the factor adds), else with the password.
   */
  async reauthenticate(
    actor: UserActor,
    body: ReauthenticateBody,
    client: ClientContext,
    relyingParty: () => RelyingParty,
  ): Promise<OpenedSession> {
    const user = await this.options.users.findById(actor.id);
    if (!user) throw new NotAuthenticatedError();
    const factors = await this.options.flags.flagsOf(user.id);
    let method: SignInMethod;
    if ('password' in body) {
      if (hasSecondFactor(factors)) {
        throw InvalidRequestError.field('method', 'You have a second factor: re-authenticate with it, not a password.');
      }
      method = 'password';
      const attempt = { account: user.email, user, method, client };
      if (!(await this.options.attempts.check(attempt, () => verifyPassword(user.passwordHash, body.password)))) {
        throw new InvalidCredentialsError();
      }
    } else {
      method = body.method;
      const attempt = { account: user.email, user, method, client };
      const verify = () => this.options.verifier.verify(user.id, body, 'reauthenticate', relyingParty);
      if (!(await this.options.attempts.check(attempt, verify))) throw new InvalidSecondFactorError();
    }
    const tenant = await this.options.tenants.findById(user.tenantId);
    return this.options.sessions.renew(actor, method, client, factors, tenant?.secondFactorRequired ?? 'none');
  }

  /** Resolves once the audit entries of past wrong attempts (written after their answers) are in. */
  async attemptsSettled(): Promise<void> {
    await this.options.attempts.settled();
  }

  /** Housekeeping: abandoned second-factor steps and unanswered passkey challenges. */
  async deleteExpired(): Promise<void> {
    await this.options.pending.deleteExpired(this.options.clock.now());
    await this.options.passkeys.deleteExpiredChallenges();
  }

  private async livePending(token: string) {
    const pending = token === '' ? undefined : await this.options.pending.find(sha256Hex(token));
    if (!pending || pending.expiresAt.getTime() <= this.options.clock.nowMs()) throw new NotAuthenticatedError();
    return pending;
  }

  /** The tenant's second-factor rule, once it is known that the tenant allows this way in. */
  private async requirePasswordSignIn(user: UserWithTenant, client: ClientContext, method: SignInMethod) {
    const tenant = await this.options.tenants.findById(user.tenantId);
    if (tenant && !tenant.passwordSignIn) {
      await this.auditFailure(user, method, client, 'sso_required');
      throw new SsoRequiredError();
    }
    return tenant?.secondFactorRequired ?? 'none';
  }

  /** A passkey is not guessed, but an account this client has been refused stays refused to it. */
  private async refuseWhileThrottled(client: ClientContext, account: string): Promise<void> {
    const retryAfter = await this.options.throttle.retryAfter(`${clientKey(client.address)}|${account}`);
    if (retryAfter > 0) throw new TooManyRequestsError(retryAfter);
  }

  /** Whoever tried is unknown: no actor id, the account is the target. */
  private async auditFailure(user: UserWithTenant, method: SignInMethod, client: ClientContext, reason: string) {
    await this.options.uow.inTransaction((tx) =>
      this.options.audit.record(
        tx,
        user.tenantId,
        { type: 'user', id: null, email: user.email },
        'user.sign_in_failed',
        userTarget(user),
        { ...signInDetail(method, client), reason },
      ),
    );
  }
}
