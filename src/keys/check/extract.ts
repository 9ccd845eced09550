/** Where a request may carry its key, in the order docs/api.md gives. */
export type PresentedKeySources = {
  xApiKey: string | string[] | undefined;
  authorization: string | string[] | undefined;
  queryKey: string | string[] | undefined;
};

/** An API key as presented: the admission's `key` credential (src/admission/credential.ts). */
export type KeyCredential = { kind: 'key'; secret: string };

export type PresentedKey = { kind: 'none' } | { kind: 'ambiguous' } | KeyCredential;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Collects the key from the header, the bearer token and the query string. The same key sent
 * twice is fine; two different keys are ambiguous rather than silently picking one.
 */
export function extractPresentedKey(sources: PresentedKeySources): PresentedKey {
  // The recommended form alone (nearly every request): no collection needed.
  if (
    typeof sources.xApiKey === 'string' &&
    sources.authorization === undefined &&
    sources.queryKey === undefined &&
    !sources.xApiKey.includes(',')
  ) {
    const secret = sources.xApiKey.trim();
    return secret === '' ? { kind: 'none' } : { kind: 'key', secret };
  }
  const found = new Set<string>();
  // Node joins a repeated X-API-Key header with ", "; keys never contain a comma.
  for (const value of asList(sources.xApiKey)) for (const part of value.split(',')) found.add(part.trim());
  for (const value of asList(sources.authorization)) {
    const bearer = BEARER.exec(value);
    if (bearer?.[1]) found.add(bearer[1]);
  }
  for (const value of asList(sources.queryKey)) found.add(value);
  found.delete('');
  if (found.size === 0) return { kind: 'none' };
  if (found.size > 1) return { kind: 'ambiguous' };
  return { kind: 'key', secret: found.values().next().value as string };
}

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
