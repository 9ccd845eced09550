import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers, computed once at start-up and set per response in one call.
 *
 * JSON API responses (/api/v1, /mcp, health, metrics, errors) get the small set a JSON API needs:
 * no sniffing, no referrer, a CSP that forbids everything (a JSON body is never a document), no
 * caching of per-key answers. helmet's full set (a page CSP and a dozen more) was computed and
 * written on every API response before: measurable CPU on the hottest path for nothing a JSON
 * client reads.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
});

const BROWSER_POLICY: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets inline styles.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      // Plain http on a LAN must keep working; HSTS handles https deployments.
      upgradeInsecureRequests: null,
    },
  },
};

/**
 * The back office and its pages: helmet's full set with our CSP. helmet's output depends only on
 * its options (no nonces), so it is run once against a recording response and the result replayed
 * per request: the same headers, without running the middleware each time.
 */
export const BROWSER_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(recordHelmet(BROWSER_POLICY));

function recordHelmet(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failed: unknown;
  helmet(options)({} as IncomingMessage, response, (error?: unknown) => void (failed = error));
  if (failed) throw failed instanceof Error ? failed : new Error('helmet failed to set the headers');
  return headers;
}
