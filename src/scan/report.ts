import { InvalidRequestError } from '../shared/errors.ts';

/** docs/api.md: `POST /api/v1/leaked-keys` takes 1–100 keys per request. */
export const REPORT_BATCH_SIZE = 100;

export type ReportResult = { sent: number; requests: number };

/** The leaked-keys endpoint of the server at `base` (which may carry a path prefix). */
export function leakedKeysUrl(base: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw InvalidRequestError.field('report', `--report needs an http(s) URL, not "${base}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw InvalidRequestError.field('report', `--report needs an http(s) URL, not "${base}"`);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/v1/leaked-keys`;
  url.search = '';
  url.hash = '';
  return url;
}

/**
 * Sends the keys in batches of at most 100. The endpoint answers 202 whatever the items were
 * (it reveals nothing), so success means "delivered", not "these were live keys".
 */
export async function reportLeakedKeys(
  url: URL,
  keys: readonly string[],
  fetchImpl: typeof fetch = fetch,
): Promise<ReportResult> {
  let requests = 0;
  for (let start = 0; start < keys.length; start += REPORT_BATCH_SIZE) {
    const batch = keys.slice(start, start + REPORT_BATCH_SIZE);
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'airkey-scan' },
      body: JSON.stringify({ keys: batch }),
    }).catch((error: unknown) => {
      // fetch says only "fetch failed"; the cause (ECONNREFUSED, a TLS error…) is what helps.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new Error(`could not send the leak report to ${url.origin}: ${cause}`);
    });
    requests++;
    // The body is read only to free the connection; its status below says what happened.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok)
      throw new Error(
        `${url.origin} answered ${response.status} to the leak report (${start} of ${keys.length} keys sent before this batch)`,
      );
  }
  return { sent: keys.length, requests };
}
