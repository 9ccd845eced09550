import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS } as const;
/** The step before and after the current one: a phone's clock a little off, a code typed at the turn. */
const ADJACENT_STEPS = 1;

/** A new shared secret, base32 (160 bits, RFC 4226's recommended length). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans (as a QR code) or takes as a link. */
export function otpauthUri(secretBase32: string, issuer: string, account: string): string {
  return new TOTP({ ...TOTP_SETTINGS, issuer, label: account, secret: Secret.fromBase32(secretBase32) }).toString();
}

/**
 * The time step a code belongs to, or null when it matches none of the current and adjacent
 * steps. The caller must still refuse a step at or before the last one accepted (one use per code).
 */
export function stepOfCode(secretBase32: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = TOTP.validate({
    ...TOTP_SETTINGS,
    token,
    secret: Secret.fromBase32(secretBase32),
    timestamp: nowMs,
    window: ADJACENT_STEPS,
  });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs }) + delta;
}
