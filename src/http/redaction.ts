import type { IncomingMessage } from 'node:http';

/**
 * The `api_key` query parameter is cut out of the URL before routing (Fastify's rewriteUrl), so
 * no log line, error or handler ever sees it in `request.url`; the values are kept here, off the
 * request object, for the key check alone.
 */
const queryKeys = new WeakMap<IncomingMessage, string[]>();

// The parameter name as the query parser will read it: `api%5Fkey` is `api_key` too.
const MAYBE_API_KEY_PARAM = /api(?:_|%5f)key/i;

export function stripQueryKey(raw: IncomingMessage): string {
  const url = raw.url ?? '/';
  const queryStart = url.indexOf('?');
  if (queryStart === -1 || !MAYBE_API_KEY_PARAM.test(url.slice(queryStart))) return url;
  const query = url.slice(queryStart + 1);
  const found: string[] = [];
  const rest = query
    .split('&')
    .filter((pair) => {
      const separator = pair.indexOf('=');
      if (separator === -1 || safeDecode(pair.slice(0, separator)) !== 'api_key') return true;
      found.push(safeDecode(pair.slice(separator + 1)));
      return false;
    })
    .join('&');
  queryKeys.set(raw, found);
  const clean = url.slice(0, queryStart) + (rest ? `?${rest}` : '');
  // Fastify keeps the pre-rewrite URL as originalUrl; scrub that copy too.
  (raw as IncomingMessage & { originalUrl?: string }).originalUrl = clean;
  return clean;
}

export function queryKeysOf(raw: IncomingMessage): string[] | undefined {
  return queryKeys.get(raw);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
