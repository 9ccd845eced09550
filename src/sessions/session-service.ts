import { randomBytes } from 'node:crypto';
import type { Db } from '../db/handle.ts';
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

/** Back-office sign-in: argon2id passwords, database sessions, a CSRF token per session. */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    private readonly audit: AuditService,
    /** Failed sign-ins per account and client (a few). */
    private readonly throttle: FailureThrottle,
    /** Failed sign-ins per client across all accounts (many): stops spraying, not an office's typos. */
    private readonly sprayThrottle: FailureThrottle,
    private readonly clock: Clock,
    private readonly random: RandomBytes = randomBytes,
  ) {}

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
        await this.audit.record(
          this.db,
          user.tenantId,
          { type: 'user', id: null, email: user.email },
          'user.sign_in_failed',
          {
            type: 'user',
            id: user.id,
            name: user.email,
          },
          { client },
        );
      }
      throw new InvalidCredentialsError();
    }
    await this.throttle.reset(throttleKey);
    const token = this.random(32).toString('base64url');
    const csrfToken = this.random(24).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await this.sessions.insert({
      tokenDigest: sha256Hex(token),
      userId: user.id,
      csrfToken,
      createdAt: now,
      expiresAt,
    });
    await this.audit.record(
      this.db,
      user.tenantId,
      { type: 'user', id: user.id, email: user.email },
      'user.signed_in',
      {
        type: 'user',
        id: user.id,
        name: user.email,
      },
      { client },
    );
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
