import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoOfUtcTimestamp } from '../../../src/db/utc-instant.ts';

/** What PostgreSQL writes for a UTC `timestamp` in JSON: microseconds, trailing zeros dropped. */
function asPostgresWrites(ms: number, extraMicros: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = (iso.slice(20, 23) + String(extraMicros).padStart(3, '0')).replace(/0+$/, '');
  return iso.slice(0, 19) + (fraction ? `.${fraction}` : '');
}

describe('PostgreSQL UTC timestamps become the API instants', () => {
  it('adds the milliseconds and Z that PostgreSQL leaves out', () => {
    expect(isoOfUtcTimestamp('2026-11-22T18:18:40')).toBe('2026-11-22T18:18:40.000Z');
    expect(isoOfUtcTimestamp('2026-11-22T18:18:40.1')).toBe('2026-11-22T18:18:40.100Z');
    expect(isoOfUtcTimestamp('2026-11-22T18:18:40.12')).toBe('2026-11-22T18:18:40.120Z');
  });

  it('reads the text form (a space between date and time) as well as the JSON form', () => {
    expect(isoOfUtcTimestamp('2026-11-22 18:18:40.5')).toBe('2026-11-22T18:18:40.500Z');
    expect(isoOfUtcTimestamp('2026-11-22 18:18:40')).toBe('2026-11-22T18:18:40.000Z');
  });

  it('cuts microseconds as a Date does', () => {
    expect(isoOfUtcTimestamp('2026-11-22T18:18:40.123999')).toBe('2026-11-22T18:18:40.123Z');
  });

  it('agrees with Date#toISOString for any instant from 1970 to 9999 and any microseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.integer({ min: 0, max: 999 }), (ms, micros) => {
        const written = asPostgresWrites(ms, micros);
        expect(isoOfUtcTimestamp(written)).toBe(new Date(ms).toISOString());
        expect(isoOfUtcTimestamp(written.replace('T', ' '))).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });
});
