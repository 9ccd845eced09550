// Dates in the back office are shown in UTC: keys stop at 00:00 UTC, whatever the viewer's zone.
const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The earliest expiry the server accepts: a date later than today in UTC, i.e. tomorrow (UTC). */
export function earliestExpiryDate(now: Date): string {
  const todayUtc = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return utcDateOf(new Date(todayUtc + DAY_MS));
}

/** The instant a key with this expiry date stops working: 00:00:00 UTC of that date. */
export function expiryInstant(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const timeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "22 Nov 2026" (UTC). */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** "22 Nov 2026, 14:05 UTC": the exact instant, unambiguous for every reader. */
export function formatInstant(iso: string): string {
  const at = new Date(iso);
  return `${dateFormat.format(at)}, ${timeFormat.format(at)} UTC`;
}

/** How a key's expiry reads: the date, and the exact instant it stops working. */
export function formatExpiry(expiresAtTime: string): { date: string; stopsAt: string } {
  return { date: formatDate(expiresAtTime), stopsAt: `Stops at ${formatInstant(expiresAtTime)}` };
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['week', 7 * DAY_MS],
  ['day', DAY_MS],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
];

/** "Never", "just now", "5 minutes ago", "yesterday", "3 months ago". */
export function formatLastUsed(iso: string | null, now: Date): string {
  if (!iso) return 'Never';
  return formatRelative(iso, now);
}

export function formatRelative(iso: string, now: Date): string {
  const elapsed = now.getTime() - new Date(iso).getTime();
  // A little clock skew between server and browser must not read as "in 3 seconds".
  if (Math.abs(elapsed) < 60 * 1000) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(elapsed) >= size) return relative.format(-Math.trunc(elapsed / size), unit);
  }
  return 'just now';
}

/** What the date pickers' buttons say to a screen reader. */
export const CALENDAR_LABELS = {
  monthLevelControl: 'Choose a month',
  yearLevelControl: 'Choose a year',
  nextMonth: 'Next month',
  previousMonth: 'Previous month',
  nextYear: 'Next year',
  previousYear: 'Previous year',
  nextDecade: 'Next decade',
  previousDecade: 'Previous decade',
};
