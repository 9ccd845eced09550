/**
 * The page to return to after sign-in, if it is a path of this server; anything else (another
 * origin, `//host`, a backslash trick, a scheme) is dropped, and the default page is used.
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
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : null;
}
