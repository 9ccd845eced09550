import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { secondFactorMethods, hasSecondFactor, type FactorFlags } from '../second-factors/factor-flags.ts';
import { isEnrolmentOnly, type SecondFactorRequirement } from '../shared/second-factor-requirement.ts';
import { requirePermission, requireRecentSignIn, userActor, type UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { randomToken, sha256Hex, type RandomBytes } from '../shared/digest.ts';
import { NotFoundError, PermissionDeniedError } from '../shared/errors.ts';
import type { UserRepository, UserWithTenant } from '../users/user-repository.ts';
import { toUserView } from '../users/user-service.ts';
import type { SessionRepository, SessionRow } from './session-repository.ts';
import { asActor, keptUserAgent, signInDetail, userTarget, type ClientContext } from './sign-in-audit.ts';
import { sessionEndsAtMs, type SessionLimits, type SignInMethod } from './session-rules.ts';
import type { SessionListItem, SignedIn } from './session-schemas.ts';

export type { ClientContext } from './sign-in-audit.ts';

export type ResolvedSession = SignedIn & { actor: UserActor; sessionId: string };
/** What a cookie names: nothing, a session that has ended (idle or too old), or a live one. */
export type SessionLookup = { state: 'none' } | { state: 'ended' } | { state: 'live'; session: ResolvedSession };
/** A new or renewed session: the cookie's value and its end, with what the page may see. */
export type OpenedSession = SignedIn & { token: string; expiresAt: Date };

/** What the browser's user agent string is kept to: enough to tell a phone from a laptop. */

export type SessionServiceOptions = {
  uow: UnitOfWork;
  sessions: SessionRepository;
  users: UserRepository;
  audit: AuditService;
  clock: Clock;
  limits: SessionLimits;
  random?: RandomBytes;
};

/**
 * Back-office sessions (docs/sign-in.md (Sessions)): opened by a completed sign-in, renewed by a
 * re-authentication, ended by idleness, age, sign-out or the person (or an administrator). The
 * database is the only place a session lives: every request reads it, so ending one holds on
 * every instance from the commit.
 */
export class SessionService {
  private readonly options: SessionServiceOptions;
  constructor(options: SessionServiceOptions) {
    this.options = options;
  }

  /** A completed sign-in: a new session (never a cookie the browser brought) and its audit entry. */
  async open(
    user: UserWithTenant,
    method: SignInMethod,
    client: ClientContext,
    factors: FactorFlags,
    requirement: SecondFactorRequirement,
  ): Promise<OpenedSession> {
    const { uow, sessions, audit, clock, limits } = this.options;
    const token = this.newToken();
    const now = clock.now();
    const row = await uow.inTransaction(async (tx) => {
      const inserted = await sessions.insert(tx, {
        tokenDigest: sha256Hex(token),
        userId: user.id,
        csrfToken: this.newCsrfToken(),
        createdAt: now,
        lastSeenAt: now,
        authenticatedAt: now,
        expiresAt: new Date(now.getTime() + limits.maxMs),
        method,
        address: client.address,
        userAgent: keptUserAgent(client),
      });
      await audit.record(
        tx,
        user.tenantId,
        asActor(user),
        'user.signed_in',
        userTarget(user),
        signInDetail(method, client),
      );
      return inserted;
    });
    return { token, expiresAt: row.expiresAt, ...this.view(row, user, factors, requirement) };
  }

  /** The session of a cookie, with its user, roles and factors as they are now; notes the request. */
  async resolve(token: string): Promise<SessionLookup> {
    const found = await this.options.sessions.findWithUser(sha256Hex(token));
    if (!found) return { state: 'none' };
    const { session, user, factors, requirement } = found;
    const now = this.options.clock.now();
    if (now.getTime() >= sessionEndsAtMs(session, this.options.limits)) return { state: 'ended' };
    await this.options.sessions.touch(session, now);
    const view = this.view(session, user, factors, requirement);
    const actor = userActor(user, {
      sessionId: session.id,
      reauthenticatedUntilMs: Date.parse(view.reauthenticated_until),
      enrolmentOnly: view.enrolment_required,
    });
    return { state: 'live', session: { ...view, actor, sessionId: session.id } };
  }

  /**
   * Re-authentication succeeded: the same session with a new cookie and CSRF token (a token seen
   * before the check is worth nothing after it) and a fresh re-authentication window.
   */
  async renew(
    actor: UserActor,
    method: SignInMethod,
    client: ClientContext,
    factors: FactorFlags,
    requirement: SecondFactorRequirement,
  ): Promise<OpenedSession> {
    const { uow, sessions, users, audit, clock } = this.options;
    const token = this.newToken();
    const csrfToken = this.newCsrfToken();
    const now = clock.now();
    const sessionId = actor.signIn.sessionId;
    if (sessionId === null) throw new NotFoundError('session');
    const { session, user } = await uow.inTransaction(async (tx) => {
      const renewed = await sessions.renew(tx, sessionId, {
        tokenDigest: sha256Hex(token),
        csrfToken,
        authenticatedAt: now,
      });
      const row = await users.findById(actor.id, tx);
      if (!renewed || !row) throw new NotFoundError('session');
      await audit.record(tx, row.tenantId, actor, 'user.signed_in', userTarget(row), {
        ...signInDetail(method, client),
        reauthentication: true,
      });
      return { session: renewed, user: row };
    });
    return { token, expiresAt: session.expiresAt, ...this.view(session, user, factors, requirement) };
  }

  async signOut(token: string): Promise<void> {
    await this.options.sessions.delete(sha256Hex(token));
  }

  async listMine(actor: UserActor): Promise<SessionListItem[]> {
    const rows = await this.options.sessions.listForUser(actor.id);
    const nowMs = this.options.clock.nowMs();
    return rows
      .filter((row) => nowMs < sessionEndsAtMs(row, this.options.limits))
      .map((row) => ({
        id: row.id,
        created_at: row.createdAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        address: row.address,
        user_agent: row.userAgent,
        current: row.id === actor.signIn.sessionId,
      }));
  }

  /** Ends one of the person's own sessions (a browser left signed in elsewhere). */
  async endMine(actor: UserActor, id: string): Promise<void> {
    await this.options.uow.inTransaction(async (tx) => {
      if (!(await this.options.sessions.deleteOfUser(tx, actor.id, id))) throw new NotFoundError('session');
      await this.options.users.endPendingSignIns(tx, actor.id);
      await this.auditEnded(tx, actor, actor, { session_id: id, sessions_ended: 1 });
    });
  }

  /** Ends every session of the person's but the one asking. */
  async endMyOthers(actor: UserActor): Promise<void> {
    await this.options.uow.inTransaction(async (tx) => {
      const ended = await this.options.users.endSessions(tx, actor.id, actor.signIn.sessionId);
      await this.auditEnded(tx, actor, actor, { sessions_ended: ended });
    });
  }

  /** An administrator ends every session of a user of their tenant (a laptop lost, a person leaving). */
  async endForUser(actor: UserActor, tenantId: string, userId: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    if (actor.tenantId !== tenantId) throw new NotFoundError('user');
    await this.options.uow.inTransaction(async (tx) => {
      const user = await this.options.users.findInTenant(tx, tenantId, userId);
      if (!user) throw new NotFoundError('user');
      const except = user.id === actor.id ? actor.signIn.sessionId : null;
      const ended = await this.options.users.endSessions(tx, user.id, except);
      await this.auditEnded(tx, actor, user, { sessions_ended: ended });
    });
  }

  /** A System Administrator ends every session of the tenant but their own (a suspected breach). */
  async endForTenant(actor: UserActor, tenantId: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    if (!actor.roles.includes('system_administrator')) {
      throw new PermissionDeniedError('system_administrator', 'Only a System Administrator may end every session.');
    }
    requireRecentSignIn(actor, this.options.clock);
    if (actor.tenantId !== tenantId) throw new NotFoundError('tenant');
    await this.options.uow.inTransaction(async (tx) => {
      const ended = await this.options.sessions.deleteForTenant(tx, tenantId, actor.signIn.sessionId);
      await this.options.audit.record(
        tx,
        tenantId,
        actor,
        'user.sessions_ended',
        { type: 'tenant', id: tenantId, name: null },
        { sessions_ended: ended, scope: 'tenant' },
      );
    });
  }

  /** Housekeeping: ended sessions keep answering `session_expired` for a day, then go. */
  async deleteEnded(): Promise<void> {
    const dayAgo = this.options.clock.nowMs() - 86_400_000;
    await this.options.sessions.deleteEndedBefore(new Date(dayAgo - this.options.limits.idleMs), new Date(dayAgo));
  }

  private view(
    session: SessionRow,
    user: UserWithTenant,
    factors: FactorFlags,
    requirement: SecondFactorRequirement,
  ): SignedIn {
    return {
      user: toUserView(user),
      csrf_token: session.csrfToken,
      enrolment_required: isEnrolmentOnly(
        requirement,
        { roles: user.roles, hasSecondFactor: hasSecondFactor(factors) },
        session.method,
      ),
      second_factor_methods: secondFactorMethods(factors),
      reauthenticated_until: new Date(session.authenticatedAt.getTime() + this.options.limits.reauthMs).toISOString(),
      signed_in_with: session.method,
    };
  }

  private async auditEnded(
    tx: Parameters<Parameters<UnitOfWork['inTransaction']>[0]>[0],
    actor: UserActor,
    user: { id: string; email: string },
    detail: Record<string, unknown>,
  ): Promise<void> {
    await this.options.audit.record(tx, actor.tenantId, actor, 'user.sessions_ended', userTarget(user), detail);
  }

  private newToken(): string {
    return randomToken(32, this.options.random);
  }

  private newCsrfToken(): string {
    return randomToken(24, this.options.random);
  }
}
