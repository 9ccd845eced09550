import { randomBytes } from 'node:crypto';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { UserRepository } from '../users/user-repository.ts';
import { toUserView } from '../users/user-service.ts';
import type { SignedIn } from '../users/user-schemas.ts';
import { verifyPassword } from '../users/password.ts';
import { userActor, type UserActor } from '../shared/actor.ts';
import { sha256Hex, type RandomBytes } from '../shared/digest.ts';
import type { Clock } from '../shared/clock.ts';
import { InvalidCredentialsError, TooManyRequestsError } from '../shared/errors.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import type { SessionRepository } from './session-repository.ts';

export type ResolvedSession = SignedIn & { actor: UserActor };

const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export type SessionServiceOptions = {
  uow: UnitOfWork;
  sessions: SessionRepository;
  users: UserRepository;
  audit: AuditService;
  /** Failed sign-ins per account and client (a few). */
  throttle: FailureThrottle;
  /** Failed sign-ins per client across all accounts (many): stops spraying, not an office's typos. */
  sprayThrottle: FailureThrottle;
  clock: Clock;
  random?: RandomBytes;
};

/** Back-office sign-in: argon2id passwords, database sessions, a CSRF token per session. */
export class SessionService {
  private readonly uow: UnitOfWork;
  private readonly sessions: SessionRepository;
  private readonly users: UserRepository;
  private readonly audit: AuditService;
  private readonly throttle: FailureThrottle;
  private readonly sprayThrottle: FailureThrottle;
  private readonly clock: Clock;
  private readonly random: RandomBytes;

  constructor(options: SessionServiceOptions) {
    this.uow = options.uow;
    this.sessions = options.sessions;
    this.users = options.users;
    this.audit = options.audit;
    this.throttle = options.throttle;
    this.sprayThrottle = options.sprayThrottle;
    this.clock = options.clock;
    this.random = options.random ?? randomBytes;
  }

  /** Returns the new session's cookie token with what the client may see. */
  async signIn(
    email: string,
    password: string,
    client: string,
  ): Promise<SignedIn & { token: string; expiresAt: Date }> {
    const throttleKey = `${client}|${email.trim().toLowerCase()}`;
    // Per account and client: one user's typos behind an office's shared address must not lock out
    // their colleagues' accounts. Per client only past a limit no typing reaches: password spraying.
    const retryAfter = Math.max(
      await this.throttle.retryAfter(throttleKey),
      await this.sprayThrottle.retryAfter(client),
    );
    if (retryAfter > 0) throw new TooManyRequestsError(retryAfter);
    const user = await this.users.findByEmail(email.trim());
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid) {
      await Promise.all([this.throttle.recordFailure(throttleKey), this.sprayThrottle.recordFailure(client)]);
      if (user) {
        // Whoever typed the password is unknown: no actor id, the account is the target.
        const target = { type: 'user', id: user.id, name: user.email } as const;
        await this.uow.inTransaction((tx) =>
          this.audit.record(
            tx,
            user.tenantId,
            { type: 'user', id: null, email: user.email },
            'user.sign_in_failed',
            target,
            { client },
          ),
        );
      }
      throw new InvalidCredentialsError();
    }
    await this.throttle.reset(throttleKey);
    const token = this.random(32).toString('base64url');
    const csrfToken = this.random(24).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    // The session and its audit row commit together: no session nobody recorded, no record of a
    // sign-in that never got a session.
    await this.uow.inTransaction(async (tx) => {
      await this.sessions.insert(tx, {
        tokenDigest: sha256Hex(token),
        userId: user.id,
        csrfToken,
        createdAt: now,
        expiresAt,
      });
      await this.audit.record(
        tx,
        user.tenantId,
        { type: 'user', id: user.id, email: user.email },
        'user.signed_in',
        { type: 'user', id: user.id, name: user.email },
        { client },
      );
    });
    return { token, expiresAt, user: toUserView(user), csrf_token: csrfToken };
  }

  /** The session's user with their roles as they are now. */
  async resolve(token: string): Promise<ResolvedSession | undefined> {
    const found = await this.sessions.findLiveWithUser(sha256Hex(token), this.clock.now());
    if (!found) return undefined;
    return { user: toUserView(found.user), csrf_token: found.csrfToken, actor: userActor(found.user) };
  }

  async signOut(token: string): Promise<void> {
    await this.sessions.delete(sha256Hex(token));
  }

  /** Housekeeping: expired sessions are already refused; this only keeps the table small. */
  async deleteExpired(): Promise<void> {
    await this.sessions.deleteExpired(this.clock.now());
  }
}
