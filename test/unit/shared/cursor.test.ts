import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../../src/shared/cursor.ts';
import { InvalidRequestError } from '../../../src/shared/errors.ts';
import { anyString } from '../../support/use.ts';

type Position = { d: number; i: string };
const isPosition = (value: unknown): value is Position =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Position).d === 'number' &&
  typeof (value as Position).i === 'string';

const codec = new CursorCodec('test-secret');

function expectBadCursor(run: () => unknown) {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidRequestError);
  expect((thrown as InvalidRequestError).status).toBe(400);
  expect((thrown as InvalidRequestError).errors).toEqual([{ path: 'cursor', message: anyString() }]);
}

describe('CursorCodec', () => {
  it('round-trips a position within its scope', () => {
    const cursor = codec.encode({ d: 1_700_000_000_000, i: 'abc' }, 'scope');
    expect(codec.decode(cursor, 'scope', isPosition)).toEqual({ d: 1_700_000_000_000, i: 'abc' });
  });

  it('is opaque: the position is not readable as plain text', () => {
    expect(codec.encode({ d: 1, i: 'flight-id' }, 'scope')).not.toContain('flight-id');
  });

  it('rejects a cursor made for another scope (other filters or tenant)', () => {
    const cursor = codec.encode({ d: 1, i: 'a' }, 'tenant-a');
    expectBadCursor(() => codec.decode(cursor, 'tenant-b', isPosition));
  });

  it('rejects a cursor signed with another secret', () => {
    const cursor = new CursorCodec('other-secret').encode({ d: 1, i: 'a' }, 'scope');
    expectBadCursor(() => codec.decode(cursor, 'scope', isPosition));
  });

  it('rejects a re-signed-looking body, a missing signature, extra parts and garbage', () => {
    const cursor = codec.encode({ d: 1, i: 'a' }, 'scope');
    const [, signature] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ d: 2, i: 'a' })).toString('base64url')}.${signature}`;
    for (const bad of [forged, cursor.split('.')[0]!, `${cursor}.x`, '', '.', 'garbage', '%%%.%%%']) {
      expectBadCursor(() => codec.decode(bad, 'scope', isPosition));
    }
  });

  it('rejects a correctly signed value of the wrong shape', () => {
    const cursor = codec.encode({ id: 5 }, 'scope');
    expectBadCursor(() => codec.decode(cursor, 'scope', isPosition));
  });

  it('rejects every single-character change to a valid cursor', () => {
    fc.assert(
      fc.property(
        fc.record({ d: fc.integer(), i: fc.string() }),
        fc.nat(),
        fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'),
        (position, index, replacement) => {
          const cursor = codec.encode(position, 'scope');
          const at = index % cursor.length;
          fc.pre(cursor[at] !== replacement);
          const tampered = cursor.slice(0, at) + replacement + cursor.slice(at + 1);
          expectBadCursor(() => codec.decode(tampered, 'scope', isPosition));
        },
      ),
      { numRuns: 500 },
    );
  });
});
