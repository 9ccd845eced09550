import type { RequestOutcome } from './request-log-schemas.ts';

/** What presented itself: an API key, or an app's OAuth access token (docs/oauth.md). */
export type RequestCredential = 'key' | 'oauth';

/**
 * One request as the writer writes it: plain values the request already held, no key material.
 * `id`, with `at`, orders a page and names an entry; `null` until its block is encoded, which draws
 * one (src/request-log/block-columns.ts): on the binary wire as bytes, with no `randomUUID()` string.
 */
export type RequestRecord = {
  id: string | null;
  atMs: number;
  tenantId: string;
  credential: RequestCredential;
  /** The key, or for an access token its grant, named by the app. */
  keyId: string;
  keyName: string;
  /** A key's hint; an access token has none. */
  keyHint: string | null;
  method: string;
  path: string;
  route: string;
  status: number;
  outcome: RequestOutcome;
  address: string | null;
  userAgent: string | null;
  durationMs: number;
  traceId: string | null;
  mcpMethod: string | null;
  mcpTool: string | null;
};

/** A record whose id is known: one already written (the move of earlier entries), or a test's. */
export type NamedRecord = RequestRecord & { id: string };

/** What the hook hands over: a record, its id left to the writer (a test may give one). */
export type RequestFields = Omit<RequestRecord, 'id'> & { id?: string | null };

/** Problem codes that name the outcome whatever the status (an MCP tool error is a 200). */
const OUTCOME_OF_CODE: Readonly<Record<string, RequestOutcome>> = {
  api_key_ip_not_allowed: 'ip_refused',
  rate_limited: 'rate_limited',
  quota_exceeded: 'quota_exceeded',
  permission_denied: 'permission_denied',
  not_found: 'not_found',
  invalid_request: 'invalid_request',
  api_key_disabled: 'rejected',
  api_key_expired: 'rejected',
  api_key_invalid: 'rejected',
};

/** How a request that presented a key of the tenant ended (docs/request-log.md (Outcomes)). */
export function outcomeOf(status: number, code: string | undefined): RequestOutcome {
  if (status >= 500) return 'error';
  const named = code === undefined ? undefined : OUTCOME_OF_CODE[code];
  if (named !== undefined) return named;
  if (status === 401) return 'rejected';
  if (status === 403) return 'permission_denied';
  if (status === 404) return 'not_found';
  if (status === 400) return 'invalid_request';
  if (status === 429) return 'rate_limited';
  return status >= 400 ? 'invalid_request' : 'ok';
}
