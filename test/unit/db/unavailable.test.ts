import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from '../../../src/db/unavailable.ts';

const pgError = (code: string, severity: string, message = 'x') =>
  Object.assign(new Error(message), { code, severity });

describe('isDatabaseUnreachable', () => {
  it('recognises a refused, reset or dropped connection, however deeply wrapped', () => {
    expect(isDatabaseUnreachable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(
      isDatabaseUnreachable(pgError('57P01', 'FATAL', 'terminating connection due to administrator command')),
    ).toBe(true);
    expect(isDatabaseUnreachable(pgError('08006', 'ERROR'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('PGlite is closed'))).toBe(true);
    expect(
      isDatabaseUnreachable(
        new Error('Failed query', { cause: new Error('wrapper', { cause: pgError('ECONNRESET', '') }) }),
      ),
    ).toBe(true);
  });

  it('recognises a server that refuses the session with FATAL (not accepting connections, too many clients)', () => {
    expect(
      isDatabaseUnreachable(pgError('55000', 'FATAL', 'database "x" is not currently accepting connections')),
    ).toBe(true);
    expect(isDatabaseUnreachable(pgError('53300', 'FATAL', 'sorry, too many clients already'))).toBe(true);
  });

  it('does not call a bad query or a constraint violation unreachable', () => {
    expect(isDatabaseUnreachable(pgError('42601', 'ERROR', 'syntax error at or near "selec"'))).toBe(false);
    expect(isDatabaseUnreachable(pgError('23505', 'ERROR', 'duplicate key value violates unique constraint'))).toBe(
      false,
    );
    expect(isDatabaseUnreachable(new TypeError('undefined is not a function'))).toBe(false);
    expect(isDatabaseUnreachable(undefined)).toBe(false);
  });
});
