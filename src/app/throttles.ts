import type { Redis } from 'ioredis';
import type { Db } from '../db/handle.ts';
import type { Clock } from '../shared/clock.ts';
import { FailureThrottle } from '../throttle/failure-throttle.ts';

/** Failed key checks per client: twenty a minute, then a minute's block. */
const KEY_CHECK_LIMITS = { points: 20, windowSeconds: 60, blockSeconds: 60 } as const;

/**
 * The failed-attempt throttles, shared through Redis when there is one (memory otherwise). The
 * per-account sign-in counts must hold across instances: without Redis they live in `db`.
 */
export function createThrottles(redis: Redis | undefined, clock: Clock, db: Db) {
  const keyFailures = new FailureThrottle({ ...KEY_CHECK_LIMITS, keyPrefix: 'key-failures', redis, clock });
  // One database lookup a second, at most, for a blocked client: its valid keys keep working.
  const keyLookupsWhileBlocked = new FailureThrottle({
    points: 60,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: 'key-lookups-blocked',
    redis,
    clock,
  });
  // Leak reports need no key: every report spends a point, whatever it held (see LeakService).
  const leakReports = new FailureThrottle({
    points: 20,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: 'leak-reports',
    redis,
    clock,
  });
  // Wrong passwords and wrong second factors together, per account and client: after five in a
  // quarter of an hour the rest of that quarter is refused (a right password does not reset it).
  const signInFailures = new FailureThrottle({
    points: 5,
    windowSeconds: 900,
    blockSeconds: 0,
    keyPrefix: 'sign-in-failures',
    redis,
    clock,
    db,
  });
  // Per account from every client: ten wrong codes lock the second-factor step for the quarter
  // (three codes are valid at any moment), and a hundred wrong passwords with no success between
  // them lock password sign-in for the hour (NIST SP 800-63B 5.2.2). Neither blocks beyond its window.
  const signInSecondFactors = new FailureThrottle({
    points: 10,
    windowSeconds: 900,
    blockSeconds: 0,
    keyPrefix: 'sign-in-second-factors',
    redis,
    clock,
    db,
  });
  const signInPasswords = new FailureThrottle({
    points: 100,
    windowSeconds: 3600,
    blockSeconds: 0,
    keyPrefix: 'sign-in-passwords',
    redis,
    clock,
    db,
  });
  // Work done before anyone is known (a passkey challenge, an SSO flow row): every call spends a
  // point, per client, at the key check's rate, counted apart so it never blocks that client's keys.
  const preSessionWork = new FailureThrottle({ ...KEY_CHECK_LIMITS, keyPrefix: 'pre-session-work', redis, clock });
  // A hundred failures in five minutes from one address, over any accounts: spraying, not typos.
  const signInSpray = new FailureThrottle({
    points: 100,
    windowSeconds: 300,
    blockSeconds: 300,
    keyPrefix: 'sign-in-spray',
    redis,
    clock,
  });
  // Open client registration (RFC 7591) spends a point per registration, per client address.
  const oauthRegistrations = new FailureThrottle({
    points: 20,
    windowSeconds: 3600,
    blockSeconds: 0,
    keyPrefix: 'oauth-registrations',
    redis,
    clock,
  });
  return {
    keyFailures,
    keyLookupsWhileBlocked,
    leakReports,
    signInFailures,
    signInSpray,
    signInSecondFactors,
    signInPasswords,
    preSessionWork,
    oauthRegistrations,
  };
}

export type Throttles = ReturnType<typeof createThrottles>;
