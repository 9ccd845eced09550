import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expiryDateOf, expiryInstantOf, isExpired, startOfUtcDay } from '../../../src/keys/expiry.ts';
import { InvalidRequestError } from '../../../src/shared/errors.ts';
import { START } from '../../support/manual-clock.ts';
import { anyString } from '../../support/use.ts';

const at = (iso: string) => new Date(iso);

function rejection(date: string, now: Date): InvalidRequestError {
  try {
    expiryInstantOf(date, now);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return error as InvalidRequestError;
  }
  throw new Error(`${date} was accepted at ${now.toISOString()}`);
}

describe('expires_at around midnight UTC', () => {
  it('rejects today, one millisecond before midnight', () => {
    const error = rejection('2026-11-22', at('2026-11-22T23:59:59.999Z'));
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ path: 'expires_at', message: anyString() }]);
  });

  it('rejects today at 00:00:00Z exactly', () => {
    rejection('2026-11-23', at('2026-11-23T00:00:00.000Z'));
  });

  it('accepts tomorrow, even one millisecond before midnight', () => {
    expect(expiryInstantOf('2026-11-23', at('2026-11-22T23:59:59.999Z')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
    expect(expiryInstantOf('2026-11-23', at('2026-11-22T00:00:00.000Z')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
  });

  it('judges "today" in UTC, not in a local offset', () => {
    // 23:30 UTC on the 22nd is already the 23rd in Europe: the 23rd is still tomorrow in UTC.
    expect(expiryInstantOf('2026-11-23', at('2026-11-22T23:30:00-00:00')).getTime()).toBe(Date.UTC(2026, 10, 23));
    // 00:30 on the 23rd at +02:00 is still the 22nd in UTC: the 23rd is tomorrow.
    expect(expiryInstantOf('2026-11-23', at('2026-11-23T00:30:00+02:00')).getTime()).toBe(Date.UTC(2026, 10, 23));
  });

  it('rejects dates in the past', () => {
    rejection('2026-11-21', at(START));
    rejection('1999-01-01', at(START));
  });

  it('rejects impossible calendar dates', () => {
    const now = at('2026-01-01T00:00:00Z');
    for (const date of [
      '2027-02-29',
      '2027-04-31',
      '2027-13-01',
      '2027-00-10',
      '2027-01-00',
      '2027-01-32',
      '0099-01-01',
    ]) {
      expect(rejection(date, now).errors[0]!.path, date).toBe('expires_at');
    }
    expect(expiryInstantOf('2028-02-29', now).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('stops a key at 00:00:00Z of the date: valid one millisecond before, expired at the instant', () => {
    const instant = expiryInstantOf('2026-11-23', at('2026-11-22T08:00:00Z'));
    expect(isExpired(instant, instant.getTime() - 1)).toBe(false);
    expect(isExpired(instant, instant.getTime())).toBe(true);
    expect(isExpired(instant.getTime(), instant.getTime() + 1)).toBe(true);
    expect(isExpired(null, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('gives back the calendar date the instant was chosen as', () => {
    expect(expiryDateOf(at('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
    expect(startOfUtcDay(at('2026-11-22T23:59:59.999Z'))).toBe(Date.UTC(2026, 10, 22));
  });
});

describe('expires_at properties', () => {
  const now = at(START);
  const strictDate = /^\d{4}-\d{2}-\d{2}$/;

  it('rejects every string that is not exactly YYYY-MM-DD with a 400 on expires_at', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.constantFrom(
            '2030-01-01T00:00:00Z',
            ' 2030-01-01',
            '2030-01-01 ',
            '2030-1-01',
            '30-01-01',
            '2030/01/01',
            '+02030-01-01',
            '２０３０-01-01',
          ),
          fc
            .tuple(
              fc.integer({ min: 0, max: 99999 }),
              fc.integer({ min: 0, max: 999 }),
              fc.integer({ min: 0, max: 999 }),
            )
            .map(([y, m, d]) => `${y}-${m}-${d}`),
        ),
        (input) => {
          fc.pre(!strictDate.test(input));
          expect(rejection(input, now).errors[0]!.path).toBe('expires_at');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts a real date exactly when it is after today (UTC), at 00:00:00Z of that date', () => {
    fc.assert(
      fc.property(
        fc.date({ min: at('1970-01-01T00:00:00Z'), max: at('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.date({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z'), noInvalidDate: true }),
        (day, clock) => {
          const date = day.toISOString().slice(0, 10);
          const later = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) > startOfUtcDay(clock);
          if (later) {
            expect(expiryInstantOf(date, clock).toISOString()).toBe(`${date}T00:00:00.000Z`);
          } else {
            rejection(date, clock);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
