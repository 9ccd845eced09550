/** The three ways a client may send an API key (docs/api.md (errors)). */
export type KeyVia = 'header' | 'bearer' | 'query';
export const KEY_VIAS: readonly KeyVia[] = ['header', 'bearer', 'query'];

/**
 * `url` and headers carrying `key` the chosen way; nothing added when `key` is undefined.
 * Every test kit (inject, fetch, the MCP client) sends keys through this one function.
 */
export function withKey(
  key: string | undefined,
  url: string,
  via: KeyVia = 'header',
  headers: Record<string, string> = {},
): { url: string; headers: Record<string, string> } {
  const out: Record<string, string> = { ...headers };
  let target = url;
  if (key !== undefined && via === 'header') out['x-api-key'] = key;
  if (key !== undefined && via === 'bearer') out.authorization = `Bearer ${key}`;
  if (key !== undefined && via === 'query')
    target += `${url.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(key)}`;
  return { url: target, headers: out };
}

/** A well-formed key that no tenant holds. */
export function unknownKey(fill = 'Z'): string {
  return `ask_${fill.repeat(64)}`.slice(0, 68);
}
