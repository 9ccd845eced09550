/** How sessions end and how long a sign-in stays fresh (docs/sign-in.md (Sessions)), in milliseconds. */
export type SessionLimits = {
  /** A session without a request for this long has ended (SESSION_IDLE_MINUTES). */
  idleMs: number;
  /** A session this long after sign-in has ended, whatever happens meanwhile (SESSION_MAX_HOURS). */
  maxMs: number;
  /** Sensitive actions need a sign-in or re-authentication this recent (REAUTH_MINUTES). */
  reauthMs: number;
};

export function sessionLimitsOf(config: {
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  reauthMinutes: number;
}): SessionLimits {
  return {
    idleMs: config.sessionIdleMinutes * 60_000,
    maxMs: config.sessionMaxHours * 3_600_000,
    reauthMs: config.reauthMinutes * 60_000,
  };
}

/** How a person proved who they are; `sso` is the tenant's identity provider (which holds its own factors). */
export const SIGN_IN_METHODS = ['password', 'totp', 'passkey', 'recovery_code', 'sso'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** The instant (ms) a session ends: idle since its last request, or at its absolute end, whichever comes first. */
export function sessionEndsAtMs(session: { lastSeenAt: Date; expiresAt: Date }, limits: SessionLimits): number {
  return Math.min(session.lastSeenAt.getTime() + limits.idleMs, session.expiresAt.getTime());
}
