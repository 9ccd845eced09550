import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validName } from '../../../src/keys/lifecycle/valid-name.ts';
import { InvalidRequestError } from '../../../src/shared/errors.ts';
import { anyString } from '../../support/use.ts';

// eslint-disable-next-line no-control-regex -- control characters are exactly what a name must not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function outcome(raw: unknown): { ok: true; name: string } | { ok: false; error: InvalidRequestError } {
  try {
    return { ok: true, name: validName(raw) };
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return { ok: false, error: error as InvalidRequestError };
  }
}

describe('validName', () => {
  it('trims and accepts 1–100 characters', () => {
    expect(validName('  Nightly export  ')).toBe('Nightly export');
    expect(validName('x')).toBe('x');
    expect(validName('é'.repeat(100))).toHaveLength(100);
    expect(validName('✈️'.repeat(10))).toBe('✈️'.repeat(10));
  });

  it('rejects a missing, blank, too long or control-character name on the name field', () => {
    for (const bad of [
      undefined,
      null,
      42,
      '',
      '   ',
      '\t\n',
      'a'.repeat(101),
      'a\u0000b',
      'tab\there',
      'bell\u0007',
      'del\u007f',
      'c1\u0085x',
    ]) {
      const result = outcome(bad);
      expect(result.ok, JSON.stringify(bad)).toBe(false);
      if (!result.ok) expect(result.error.errors).toEqual([{ path: 'name', message: anyString() }]);
    }
  });

  it('counts characters, not UTF-16 units: 100 astral characters fit', () => {
    expect(outcome('𝔸'.repeat(100)).ok).toBe(true);
    expect(outcome('𝔸'.repeat(101)).ok).toBe(false);
  });

  it('for any string, returns the trimmed string when it is 1–100 characters without control characters, else a 400', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 120 }),
          fc.string({ unit: 'binary', maxLength: 120 }),
          fc.string({ unit: 'grapheme', maxLength: 110 }),
        ),
        (raw) => {
          const trimmed = raw.trim();
          const valid = [...trimmed].length >= 1 && [...trimmed].length <= 100 && !CONTROL.test(trimmed);
          const result = outcome(raw);
          expect(result.ok).toBe(valid);
          if (result.ok) expect(result.name).toBe(trimmed);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('is idempotent on what it accepts', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 100 }), (raw) => {
        const first = outcome(raw);
        if (first.ok) expect(validName(first.name)).toBe(first.name);
      }),
    );
  });
});
