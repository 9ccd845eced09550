/**
 * A `timestamp` in UTC as PostgreSQL writes it (`2026-11-22 18:18:40.137837` as text, with a `T`
 * in JSON; the fraction's trailing zeros dropped, no fraction at all on a whole second) in the
 * API's form, as `Date#toISOString` writes it (milliseconds, `Z`). String work only: parsing a
 * Date and writing it back for each instant is the largest cost of our own in a long list or a
 * page of flights (docs/performance.md). Select the column `at time zone 'UTC'` to get this form.
 */
export function isoOfUtcTimestamp(text: string): string {
  const separator = text[10];
  if (separator === 'T' || separator === ' ') {
    const day = text.slice(0, 10);
    const time = text.slice(11, 19);
    if (text.length === 19) return `${day}T${time}.000Z`;
    if (text.length >= 21 && text.length <= 26 && text[19] === '.')
      return `${day}T${time}${(text.slice(19) + '00').slice(0, 4)}Z`;
  }
  // Never written by airkey (a year past 9999, say): the slow way keeps it exact.
  return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
}
