/** Schemes a browser runs or reads itself: never an app's way back. */
const FORBIDDEN_SCHEMES = new Set(['javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'ws', 'wss', 'ftp']);

/**
 * Why a client may not name this redirect URI, or undefined: `https:`, loopback `http:` (native
 * clients listen on a port of their own), or a private-use scheme (`com.example.app:/callback`,
 * RFC 8252 §7.1; desktop hosts also use their own name, `cursor://…`). Anything else, and any URI
 * with a fragment or credentials, is refused.
 */
export function redirectUriProblem(raw: string): string | undefined {
  if (!URL.canParse(raw)) return 'is not an absolute URI';
  const uri = new URL(raw);
  if (uri.hash) return 'must not have a fragment';
  if (uri.username || uri.password) return 'must not carry credentials';
  if (uri.protocol === 'https:') return undefined;
  if (uri.protocol === 'http:') return isLoopback(uri.hostname) ? undefined : 'http: is only for a loopback address';
  const scheme = uri.protocol.slice(0, -1);
  return FORBIDDEN_SCHEMES.has(scheme) ? `the scheme ${scheme}: is not allowed` : undefined;
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
