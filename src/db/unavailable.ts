const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

/** True when an error means "the database cannot be reached", as opposed to a bad query. */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, severity } = current as { code?: unknown; message?: unknown; severity?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
    // FATAL ends the session: the server refused or dropped us (not accepting connections, too
    // many clients, shutting down), whatever the SQLSTATE.
    if (severity === 'FATAL' || severity === 'PANIC') return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|connection timeout|PGlite is closed|Client has encountered a connection error/i.test(
        message,
      )
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when the database refused the statement's values (SQLSTATE class 22, "data exception": a
 * NUL in text, a number out of range): the same statement would fail again on every retry.
 */
export function isDataRejected(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && code.startsWith('22')) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
