import type { Clock } from '../shared/clock.ts';

/** Discovery and keys are kept at least this long, whatever the provider says (no-store included)... */
export const MIN_LIFETIME_MS = 60_000;
/** ...and at most this long, so a provider's changes are seen within a day. */
export const MAX_LIFETIME_MS = 86_400_000;

type Entry = { status: number; headers: [string, string][]; body: string; fetchedAtMs: number; expiresAtMs: number };
type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * The provider's discovery document and keys (JWKS), kept by their HTTP cache headers between one
 * minute and one day, so a sign-in start is not a request to the provider (docs/sso.md (Caching)).
 * Only a GET without credentials is kept: those are the two public documents; the token and
 * userinfo requests carry the client's secret or the person's token and always go to the provider.
 */
export class ProviderCache {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  constructor(clock: Clock) {
    this.clock = clock;
  }

  wrap(fetch: Fetch): Fetch {
    return async (url, init) => {
      const headers = new Headers(init?.headers);
      if ((init?.method ?? 'GET') !== 'GET' || headers.has('authorization')) return fetch(url, init);
      const now = this.clock.nowMs();
      const kept = this.entries.get(url);
      if (kept && now < kept.expiresAtMs) return responseOf(kept);
      const response = await fetch(url, init);
      if (response.status !== 200) return response;
      const body = await response.text();
      const entry: Entry = {
        status: response.status,
        headers: [...response.headers],
        body,
        fetchedAtMs: now,
        expiresAtMs: now + lifetimeMs(response.headers, now),
      };
      this.entries.set(url, entry);
      return responseOf(entry);
    };
  }

  /**
   * A key set older than the floor is dropped when a token names a key it lacks (the provider
   * rotated its keys): the next sign-in fetches them anew. The floor keeps a forged `kid` from
   * making every request a fetch.
   */
  forgetStale(url: string): void {
    const kept = this.entries.get(url);
    if (kept && this.clock.nowMs() - kept.fetchedAtMs >= MIN_LIFETIME_MS) this.entries.delete(url);
  }

  /** "Test the connection" reads the provider as it is now. */
  forgetIssuer(issuer: string): void {
    const prefix = issuer.replace(/\/$/, '');
    for (const url of this.entries.keys()) if (url.startsWith(prefix)) this.entries.delete(url);
  }
}

/** max-age, else Expires against Date; clamped to [1 minute, 1 day]. */
export function lifetimeMs(headers: Headers, nowMs: number): number {
  const control = headers.get('cache-control') ?? '';
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(control);
  let ms = 0;
  if (maxAge) ms = Number(maxAge[1]) * 1000;
  else {
    const expires = Date.parse(headers.get('expires') ?? '');
    const date = Date.parse(headers.get('date') ?? '');
    if (Number.isFinite(expires)) ms = expires - (Number.isFinite(date) ? date : nowMs);
  }
  return Math.min(MAX_LIFETIME_MS, Math.max(MIN_LIFETIME_MS, Number.isFinite(ms) ? ms : 0));
}

function responseOf(entry: Entry): Response {
  return new Response(entry.body, { status: entry.status, headers: entry.headers });
}
