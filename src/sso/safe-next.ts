/** Where a sign-in lands when `next` is absent or refused. */
export const DEFAULT_NEXT = '/backoffice/settings/api-keys';

/**
 * The back-office page to return to after sign-in, or null (the default page). The one rule the
 * server holds on every path that takes `next` (docs/sso.md): a same-origin path that, once
 * normalised as a browser would, begins with `/backoffice/` (so never with `//`), and is not the
 * sign-in page itself. Normalising first matters: `/.//evil.example`, `/%2e//evil.example` and
 * `/a/..//evil.example` all become `//evil.example`, which a browser reads as another host.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || next.length > 2000 || !next.startsWith('/') || next.startsWith('//')) return null;
  // Browsers read a backslash as a slash and drop tabs and newlines: "/\evil.test" is "//evil.test".
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  const base = 'http://this.server';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  const path = url.pathname;
  if (url.origin !== base || !path.startsWith('/backoffice/') || path.startsWith('/backoffice/login')) return null;
  // Encoded slashes and backslashes stay encoded in a path, but refuse them: a proxy may decode them.
  if (/%(2f|5c)/i.test(path)) return null;
  return `${path}${url.search}${url.hash}`;
}
