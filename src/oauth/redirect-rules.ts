/**
 * Whether a client may name this redirect URI: `https:`, loopback `http:` (native clients listen
 * on a port of their own), or a private-use scheme (`com.example.app:/callback`, RFC 8252 §7.1).
 * Anything else, and any URI with a fragment or credentials, is refused. Returns why, or undefined.
 */
export function redirectUriProblem(raw: string): string | undefined {
  if (!URL.canParse(raw)) return 'is not an absolute URI';
  const uri = new URL(raw);
  if (uri.hash) return 'must not have a fragment';
  if (uri.username || uri.password) return 'must not carry credentials';
  if (uri.protocol === 'https:') return undefined;
  if (uri.protocol === 'http:') return isLoopback(uri.hostname) ? undefined : 'http: is only for a loopback address';
  // A private-use scheme is a reverse domain name (with a dot), never a web or script scheme.
  const scheme = uri.protocol.slice(0, -1);
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+$/.test(scheme)) return undefined;
  return `the scheme ${scheme}: is not allowed`;
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
