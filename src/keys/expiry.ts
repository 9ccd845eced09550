import { InvalidRequestError } from '../shared/errors.ts';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * Turns an `expires_at` calendar date into the instant the key stops working: 00:00:00 UTC of
 * that date (docs/keys.md). The date must be real and later than today in UTC.
 */
export function expiryInstantOf(date: string, now: Date): Date {
  const match = DATE_PATTERN.exec(date);
  if (!match) throw InvalidRequestError.field('expires_at', 'Use a calendar date in the form YYYY-MM-DD.');
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const instant = new Date(Date.UTC(year, month - 1, day));
  if (instant.getUTCFullYear() !== year || instant.getUTCMonth() !== month - 1 || instant.getUTCDate() !== day) {
    throw InvalidRequestError.field('expires_at', `${date} is not a real calendar date.`);
  }
  if (instant.getTime() <= startOfUtcDay(now)) {
    throw InvalidRequestError.field('expires_at', 'The expiry date must be later than today (UTC).');
  }
  return instant;
}

export function startOfUtcDay(now: Date): number {
  return Math.floor(now.getTime() / DAY_MS) * DAY_MS;
}

/** The calendar date a stored expiry instant (a Date, or its ISO 8601 string) was chosen as. */
export function expiryDateOf(instant: Date | string): string {
  return (typeof instant === 'string' ? instant : instant.toISOString()).slice(0, 10);
}

export function isExpired(expiresAt: Date | number | null, nowMs: number): boolean {
  return expiresAt !== null && nowMs >= +expiresAt;
}
