const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else names nothing (a 404, like an unknown or another tenant's id). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
