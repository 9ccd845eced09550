import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { FactorFlagsRepository } from '../second-factors/factor-flags-repository.ts';
import type { Passkeys } from '../second-factors/passkeys/passkeys.ts';
import type { SecondFactorVerifier } from '../second-factors/verify-second-factor.ts';
import type { Clock } from '../shared/clock.ts';
import type { RandomBytes } from '../shared/digest.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import type { UserRepository } from '../users/user-repository.ts';
import type { PendingSignInRepository } from './pending-sign-in-repository.ts';
import type { SignInAttempts } from './sign-in-attempts.ts';
import type { SecondFactorStep } from './session-schemas.ts';
import type { OpenedSession, SessionService } from './session-service.ts';

export type PasswordSignIn =
  | { kind: 'signed_in'; session: OpenedSession }
  | { kind: 'second_factor'; step: SecondFactorStep; token: string; expiresAt: Date };

export type SignInServiceOptions = {
  uow: UnitOfWork;
  sessions: SessionService;
  pending: PendingSignInRepository;
  users: UserRepository;
  tenants: TenantRepository;
  flags: FactorFlagsRepository;
  verifier: SecondFactorVerifier;
  passkeys: Passkeys;
  audit: AuditService;
  /** Where every password and code is checked: counted first, audited when wrong. */
  attempts: SignInAttempts;
  /** Failed passwords and second factors per account and client, counted together (a few). */
  throttle: FailureThrottle;
  /** Failures per client across all accounts (many): stops spraying, not an office's typos. */
  sprayThrottle: FailureThrottle;
  /** Calls that do work before anyone is known, per client (passkey options, SSO start). */
  preSessionWork: FailureThrottle;
  clock: Clock;
  random?: RandomBytes;
};
