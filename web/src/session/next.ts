const DEFAULT_PAGE = '/backoffice/settings/api-keys';

/**
 * Where to go after sign-in. Only a same-origin path inside the back office is honoured, so a
 * crafted link cannot send a freshly signed-in user elsewhere (open redirect).
 */
export function safeNext(raw: string | null | undefined, origin: string): string {
  if (!raw) return DEFAULT_PAGE;
  // "//evil.example" and "/\evil.example" are protocol-relative to browsers.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return DEFAULT_PAGE;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return DEFAULT_PAGE;
  }
  if (
    url.origin !== origin ||
    !url.pathname.startsWith('/backoffice/') ||
    url.pathname.startsWith('/backoffice/login')
  ) {
    return DEFAULT_PAGE;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in URL that brings the user back to `path` afterwards (saying why, when a session ended). */
export function signInUrl(path: string, reason?: 'session_expired'): string {
  return `/backoffice/login?next=${encodeURIComponent(path)}${reason ? `&reason=${reason}` : ''}`;
}

let leaving = false;

/**
 * To sign-in by a full navigation, once per page: when a session lapses, every query then refused
 * would start a navigation of its own, each cancelling the one before (the browser aborts it).
 */
export function goToSignIn(
  path: string,
  reason?: 'session_expired',
  location: Pick<Location, 'replace'> = window.location,
): void {
  if (leaving) return;
  leaving = true;
  location.replace(signInUrl(path, reason));
}

/**
 * After a deliberate sign-out, to sign-in, under the same once-per-page guard: the queries the
 * sign-out cleared are refused as they refetch, and their navigation must not cancel this one.
 */
export function goToSignInAfterSignOut(location: Pick<Location, 'assign'> = window.location): void {
  if (leaving) return;
  leaving = true;
  location.assign('/backoffice/login');
}
