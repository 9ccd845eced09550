import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import type { UserRepository } from '../users/user-repository.ts';
import {
  requireOwnTenant,
  requirePermission,
  requireRecentSignIn,
  type Actor,
  type UserActor,
} from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import {
  InvalidRequestError,
  InvalidEnrolmentCodeError,
  LastSecondFactorError,
  NotFoundError,
  PermissionDeniedError,
} from '../shared/errors.ts';
import { nameProblem } from '../shared/text-rules.ts';
import { hasSecondFactor } from './factor-flags.ts';
import type { FactorFlagsRepository } from './factor-flags-repository.ts';
import type { PasskeyRepository, PasskeyRow } from './passkeys/passkey-repository.ts';
import type { Passkeys, RelyingParty } from './passkeys/passkeys.ts';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes/recovery-codes.ts';
import type { RecoveryCodeRepository } from './recovery-codes/recovery-code-repository.ts';
import { requirementCovers } from '../shared/second-factor-requirement.ts';
import type { SecondFactorsView, PasskeyView } from './second-factor-schemas.ts';
import { newTotpSecret, otpauthUri, stepOfCode } from './totp/totp.ts';
import type { TotpRepository } from './totp/totp-repository.ts';
import type { Sealer } from './verify-second-factor.ts';

export type SecondFactorServiceOptions = {
  uow: UnitOfWork;
  totp: TotpRepository;
  passkeyRows: PasskeyRepository;
  passkeys: Passkeys;
  recoveryCodes: RecoveryCodeRepository;
  flags: FactorFlagsRepository;
  users: UserRepository;
  tenants: TenantRepository;
  audit: AuditService;
  secrets: Sealer;
  clock: Clock;
};

type Factor = 'totp' | 'passkey';

/**
 * A person's own second factors (docs/sign-in.md (Second factors)): enrolling and removing an
 * authenticator app or a passkey, and recovery codes. Each change needs a recent sign-in, ends the
 * person's other sessions, and is audited. A System Administrator resets another user's factors.
 */
export class SecondFactorService {
  private readonly options: SecondFactorServiceOptions;
  constructor(options: SecondFactorServiceOptions) {
    this.options = options;
  }

  async overview(actor: UserActor): Promise<SecondFactorsView> {
    const { totp, passkeyRows, recoveryCodes } = this.options;
    const [totpRow, passkeys, codesLeft] = await Promise.all([
      totp.find(actor.id),
      passkeyRows.listForUser(actor.id),
      recoveryCodes.count(actor.id),
    ]);
    return {
      totp: Boolean(totpRow?.secretSealed),
      passkeys: passkeys.map(toPasskeyView),
      recovery_codes_left: codesLeft,
    };
  }

  /** A new authenticator-app secret, waiting for a code from it; the one in use (if any) stays until then. */
  async beginTotp(actor: UserActor): Promise<{ secret: string; otpauth_uri: string }> {
    requireRecentSignIn(actor, this.options.clock);
    const secret = newTotpSecret();
    await this.options.uow.inTransaction((tx) =>
      this.options.totp.savePending(tx, actor.id, this.options.secrets.seal(secret)),
    );
    return { secret, otpauth_uri: otpauthUri(secret, 'airkey', actor.email) };
  }

  async confirmTotp(actor: UserActor, code: string): Promise<{ recovery_codes: string[] | null }> {
    requireRecentSignIn(actor, this.options.clock);
    const { totp, secrets, clock } = this.options;
    const pending = (await totp.find(actor.id))?.pendingSecretSealed;
    if (!pending) throw InvalidRequestError.field('code', 'Start adding an authenticator app first.');
    const step = stepOfCode(secrets.open(pending), code, clock.nowMs());
    // A wrong code here is the form's mistake, not a failed sign-in: 400 naming the code.
    if (step === null) throw new InvalidEnrolmentCodeError();
    return this.addFactor(actor, 'totp', async (tx) => {
      if (!(await totp.confirmPending(tx, actor.id, step, clock.now())))
        throw new NotFoundError('pending authenticator app');
      return {};
    });
  }

  async removeTotp(actor: UserActor): Promise<void> {
    requireRecentSignIn(actor, this.options.clock);
    await this.removeFactor(actor, 'totp', (tx) => this.options.totp.delete(tx, actor.id));
  }

  async passkeyOptions(actor: UserActor, rp: RelyingParty) {
    requireRecentSignIn(actor, this.options.clock);
    const user = await this.options.users.findById(actor.id);
    if (!user) throw new NotFoundError('user');
    return this.options.passkeys.creationOptions(rp, user);
  }

  async addPasskey(
    actor: UserActor,
    rp: RelyingParty,
    name: string,
    response: RegistrationResponseJSON,
  ): Promise<{ passkey: PasskeyView; recovery_codes: string[] | null }> {
    requireRecentSignIn(actor, this.options.clock);
    const problem = nameProblem(name);
    if (problem) throw InvalidRequestError.field('name', problem);
    const credential = await this.options.passkeys.verifyCreation(rp, actor.id, response);
    if (!credential) {
      throw InvalidRequestError.field('response', 'The passkey could not be verified: start adding it again.');
    }
    let row: PasskeyRow | undefined;
    const { recovery_codes } = await this.addFactor(actor, 'passkey', async (tx) => {
      row = await this.options.passkeyRows.insert(tx, { userId: actor.id, name: name.trim(), ...credential });
      return { name: row.name };
    });
    return { passkey: toPasskeyView(row!), recovery_codes };
  }

  async removePasskey(actor: UserActor, id: string): Promise<void> {
    requireRecentSignIn(actor, this.options.clock);
    await this.removeFactor(actor, 'passkey', async (tx) => {
      const removed = await this.options.passkeyRows.delete(tx, actor.id, id);
      if (!removed) throw new NotFoundError('passkey');
      return true;
    });
  }

  /** Ten new codes; the old ones stop working in the same transaction. */
  async regenerateRecoveryCodes(actor: UserActor): Promise<{ recovery_codes: string[] }> {
    requireRecentSignIn(actor, this.options.clock);
    if (!hasSecondFactor(await this.options.flags.flagsOf(actor.id))) {
      throw InvalidRequestError.field('recovery_codes', 'Add a second factor first: recovery codes stand in for one.');
    }
    const codes = newRecoveryCodes();
    const hashes = await Promise.all(codes.map(hashRecoveryCode));
    await this.options.uow.inTransaction(async (tx) => {
      await this.options.recoveryCodes.replace(tx, actor.id, hashes);
      await this.audit(tx, actor, 'user.recovery_codes_regenerated', {});
    });
    return { recovery_codes: codes };
  }

  /**
   * A lost phone: a System Administrator removes every factor and recovery code of a user of their
   * tenant and ends that user's sessions. Allowed even where factors are required: the user then
   * signs in to enrol a new one.
   */
  async resetForUser(actor: Actor, tenantId: string, userId: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    if (actor.type === 'user' && !actor.roles.includes('system_administrator')) {
      throw new PermissionDeniedError(
        'system_administrator',
        "Only a System Administrator may reset a user's second factors.",
      );
    }
    requireOwnTenant(actor, tenantId);
    requireRecentSignIn(actor, this.options.clock);
    await this.options.uow.inTransaction(async (tx) => {
      const user = await this.options.users.findInTenant(tx, tenantId, userId);
      if (!user) throw new NotFoundError('user');
      await this.options.totp.deleteAll(tx, user.id);
      await this.options.passkeyRows.deleteAll(tx, user.id);
      await this.options.recoveryCodes.replace(tx, user.id, []);
      const own = actor.type === 'user' && actor.id === user.id;
      const ended = await this.options.users.endSessions(tx, user.id, own ? actor.signIn.sessionId : null);
      await this.options.audit.record(tx, tenantId, actor, 'user.second_factor_removed', userTarget(user), {
        method: 'all',
        reset: true,
        sessions_ended: ended,
      });
    });
  }

  /** Adds a factor in one transaction: the first one comes with recovery codes, and other sessions end. */
  private async addFactor(
    actor: UserActor,
    method: Factor,
    add: (tx: Db) => Promise<Record<string, unknown>>,
  ): Promise<{ recovery_codes: string[] | null }> {
    const first = !hasSecondFactor(await this.options.flags.flagsOf(actor.id));
    const codes = first ? newRecoveryCodes() : null;
    const hashes = codes ? await Promise.all(codes.map(hashRecoveryCode)) : [];
    await this.options.uow.inTransaction(async (tx) => {
      const detail = await add(tx);
      if (codes) await this.options.recoveryCodes.replace(tx, actor.id, hashes);
      const ended = await this.options.users.endSessions(tx, actor.id, actor.signIn.sessionId);
      await this.audit(tx, actor, 'user.second_factor_added', { method, ...detail, sessions_ended: ended });
    });
    return { recovery_codes: codes };
  }

  /** The last factor may not go while the tenant requires one; with it go the recovery codes. */
  private async removeFactor(actor: UserActor, method: Factor, remove: (tx: Db) => Promise<boolean>): Promise<void> {
    await this.options.uow.inTransaction(async (tx) => {
      const before = await this.options.flags.flagsOf(actor.id, tx);
      if (!(await remove(tx))) throw new NotFoundError(method === 'totp' ? 'authenticator app' : 'passkey');
      const after = await this.options.flags.flagsOf(actor.id, tx);
      if (hasSecondFactor(before) && !hasSecondFactor(after)) {
        const tenant = await this.options.tenants.findById(actor.tenantId, tx);
        if (tenant && requirementCovers(tenant.secondFactorRequired, actor.roles)) throw new LastSecondFactorError();
        await this.options.recoveryCodes.replace(tx, actor.id, []);
      }
      const ended = await this.options.users.endSessions(tx, actor.id, actor.signIn.sessionId);
      await this.audit(tx, actor, 'user.second_factor_removed', { method, sessions_ended: ended });
    });
  }

  private async audit(
    tx: Db,
    actor: UserActor,
    action: 'user.second_factor_added' | 'user.second_factor_removed' | 'user.recovery_codes_regenerated',
    detail: Record<string, unknown>,
  ): Promise<void> {
    await this.options.audit.record(tx, actor.tenantId, actor, action, userTarget(actor), detail);
  }
}

function userTarget(user: { id: string; email: string }) {
  return { type: 'user', id: user.id, name: user.email } as const;
}

function toPasskeyView(row: PasskeyRow): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
