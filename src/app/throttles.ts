import type { Redis } from 'ioredis';
import type { Clock } from '../shared/clock.ts';
import { FailureThrottle } from '../throttle/failure-throttle.ts';

/** The failed-attempt throttles, shared through Redis when there is one (memory otherwise). */
export function createThrottles(redis: Redis | undefined, clock: Clock) {
  const keyFailures = new FailureThrottle({
    points: 20,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: 'key-failures',
    redis,
    clock,
  });
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
  });
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
  return { keyFailures, keyLookupsWhileBlocked, leakReports, signInFailures, signInSpray, oauthRegistrations };
}
