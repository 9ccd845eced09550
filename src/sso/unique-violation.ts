/** PostgreSQL's unique_violation (PGlite reports the same SQLSTATE). */
const UNIQUE_VIOLATION = '23505';

/** Whether a database error, or one it wraps (Drizzle wraps the driver's), broke a unique key. */
export function isUniqueViolation(error: unknown): boolean {
  for (let seen = error, depth = 0; seen instanceof Error && depth < 5; seen = seen.cause, depth += 1) {
    if ((seen as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
