import type { ApiKey } from './keys-api.ts';

// When a key stops: a rolled key's retirement, and an expiry close enough to warn about.
const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Keys expiring within this many days get a warning on the list. */
export const EXPIRY_WARNING_DAYS = 7;

/**
 * "Retires in 23 h" for a rolled key: minutes under an hour, whole hours under two days (an overlap
 * of 24 h reads "23 h" right after the roll, never more than is left), then days and hours.
 */
export function retiresInText(retiresAt: string, now: Date): string {
  const left = new Date(retiresAt).getTime() - now.getTime();
  if (left <= 0) return 'Retired';
  if (left < HOUR_MS) return `Retires in ${Math.max(1, Math.floor(left / MINUTE_MS))} min`;
  if (left < 2 * DAY_MS) return `Retires in ${Math.floor(left / HOUR_MS)} h`;
  const days = Math.floor(left / DAY_MS);
  const hours = Math.floor((left % DAY_MS) / HOUR_MS);
  return `Retires in ${days} days${hours ? ` ${hours} h` : ''}`;
}

/**
 * "Expires in 3 days" when a key stops within EXPIRY_WARNING_DAYS, else undefined. Expiry is
 * 00:00 UTC of a date, so days count UTC midnights still to come (the key works during the
 * rest of today and each day before its date); under a day, hours.
 */
export function expiresSoonText(key: Pick<ApiKey, 'expires_at_time' | 'status'>, now: Date): string | undefined {
  if (!key.expires_at_time || key.status === 'expired') return undefined;
  const left = new Date(key.expires_at_time).getTime() - now.getTime();
  if (left <= 0 || left > EXPIRY_WARNING_DAYS * DAY_MS) return undefined;
  if (left < HOUR_MS) return `Expires in ${Math.max(1, Math.floor(left / MINUTE_MS))} min`;
  if (left < DAY_MS) return `Expires in ${Math.floor(left / HOUR_MS)} h`;
  const days = Math.ceil(left / DAY_MS);
  return `Expires in ${days} days`;
}

/** A rolled key still working, until its `retires_at`. */
export function isRetiring(key: Pick<ApiKey, 'retires_at'>, now: Date): boolean {
  return key.retires_at !== null && new Date(key.retires_at).getTime() > now.getTime();
}
