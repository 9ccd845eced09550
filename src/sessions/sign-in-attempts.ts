import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { TooManyRequestsError } from '../shared/errors.ts';
import { clientKey } from '../throttle/client-key.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import type { UserWithTenant } from '../users/user-repository.ts';
import type { SignInMethod } from './session-rules.ts';
import { signInDetail, userTarget, type ClientContext } from './sign-in-audit.ts';

export type SignInAttemptsOptions = {
  uow: UnitOfWork;
  audit: AuditService;
  /** Wrong passwords and second factors per account and client, together (a few). */
  perClient: FailureThrottle;
  /** Failures per client across all accounts (many): spraying, not an office's typos. */
  spray: FailureThrottle;
  /** Wrong TOTP and recovery codes per account from every client. */
  secondFactors: FailureThrottle;
  /** Wrong passwords per account from every client, until a success. */
  passwords: FailureThrottle;
  /** A failure's audit entry that could not be written (it is written after the answer). */
  onError: (error: unknown) => void;
};

/** Who is trying, as far as it is known: an unknown account is counted all the same. */
export type Attempt = {
  account: string;
  user: UserWithTenant | undefined;
  method: SignInMethod;
  client: ClientContext;
};

type Counted = { throttle: FailureThrottle; key: string; lock?: 'password' | 'second_factor' };

/**
 * Every secret a person gives at the door (a password, a code) is checked here, and only here, in
 * one order: a point is taken from each count it belongs to before the secret is looked at (the
 * stores count atomically, on every instance), so requests sent together cannot pass the limit;
 * a success gives its points back (it never counts) and ends the account's run of wrong
 * passwords; a failure keeps them and is audited.
 *
 * A failure's audit entries are written after the answer, so a wrong password costs the same
 * whether or not the account exists (only an existing account has a trail to write to).
 */
export class SignInAttempts {
  private readonly options: SignInAttemptsOptions;
  private readonly writing = new Set<Promise<void>>();
  constructor(options: SignInAttemptsOptions) {
    this.options = options;
  }

  /** True when `verify` accepted the secret; 429 when a count is spent (nothing is checked then). */
  async check(attempt: Attempt, verify: () => Promise<boolean>): Promise<boolean> {
    const counted = this.countsOf(attempt);
    // One count after another, narrowest first: an attempt the client's own count refuses never
    // touches the account's counts, so guesses sent together cannot spend the account's points and
    // then give them back after the client's first five were refused for them.
    const taken: Array<{ count: number }> = [];
    for (const c of counted) {
      const take = await c.throttle.take(c.key);
      if (!take.ok) {
        await this.giveBack(counted.slice(0, taken.length));
        throw new TooManyRequestsError(take.retryAfterSeconds);
      }
      taken.push(take);
    }
    let accepted: boolean;
    try {
      accepted = await verify();
    } catch (fault) {
      await this.giveBack(counted);
      throw fault;
    }
    if (accepted) {
      await this.giveBack(counted.filter((c) => c.lock !== 'password'));
      await Promise.all(counted.filter((c) => c.lock === 'password').map((c) => c.throttle.reset(c.key)));
      return true;
    }
    // The attempt that spent an account's last point starts its lock: audited once per lock.
    const locked = counted.find((c, i) => c.lock && taken[i]!.count === c.throttle.points);
    this.afterAnswer(attempt, locked?.lock);
    return false;
  }

  /** For tests and shutdown: resolves once the audit entries of past failures are written. */
  async settled(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing);
  }

  private countsOf({ account, method, client }: Attempt): Counted[] {
    const { perClient, spray, secondFactors, passwords } = this.options;
    const from = clientKey(client.address);
    const counted: Counted[] = [
      { throttle: perClient, key: `${from}|${account}` },
      { throttle: spray, key: from },
    ];
    if (method === 'password') counted.push({ throttle: passwords, key: account, lock: 'password' });
    // A passkey is not guessed: it still signs in while the codes are locked.
    if (method === 'totp' || method === 'recovery_code') {
      counted.push({ throttle: secondFactors, key: account, lock: 'second_factor' });
    }
    return counted;
  }

  private async giveBack(counted: Counted[]): Promise<void> {
    await Promise.all(counted.map((c) => c.throttle.giveBack(c.key)));
  }

  private afterAnswer({ user, method, client }: Attempt, lock: 'password' | 'second_factor' | undefined): void {
    if (!user) return;
    const write = this.options.uow
      .inTransaction(async (tx) => {
        // Whoever tried is unknown: no actor id, the account is the target.
        const actor = { type: 'user', id: null, email: user.email } as const;
        const detail = signInDetail(method, client);
        await this.options.audit.record(tx, user.tenantId, actor, 'user.sign_in_failed', userTarget(user), {
          ...detail,
          reason: 'wrong',
        });
        if (lock) {
          await this.options.audit.record(tx, user.tenantId, actor, 'user.sign_in_locked', userTarget(user), {
            ...detail,
            locked: lock,
          });
        }
      })
      .catch(this.options.onError)
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
  }
}
