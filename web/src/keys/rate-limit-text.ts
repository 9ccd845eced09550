import type { ApiKey } from './keys-api.ts';
import { requestsOf, requestsProblemOf, type Requests } from './limit-draft.ts';

export type RateLimitValue = NonNullable<ApiKey['rate_limit']>;
export type RateWindow = RateLimitValue['window'];
/** Where the server's errors about a rate limit point. */
export const RATE_LIMIT_FIELDS = ['rate_limit.requests', 'rate_limit.window', 'rate_limit'];

/** The windows a limit may use, in the words the dialog offers (docs/keys.md (Rate limits)). */
export const RATE_WINDOWS: ReadonlyArray<{ value: RateWindow; label: string }> = [
  { value: '1s', label: 'requests per second' },
  { value: '1m', label: 'requests per minute' },
  { value: '1h', label: 'requests per hour' },
  { value: '1d', label: 'requests per day' },
];

const count = new Intl.NumberFormat('en-GB');
const WINDOW_WORD: Record<RateWindow, string> = { '1s': 'second', '1m': 'minute', '1h': 'hour', '1d': 'day' };

/** "100 requests per minute", "1 request per second", or "No limit". */
export function rateLimitText(limit: RateLimitValue | null): string {
  if (!limit) return 'No limit';
  return `${count.format(limit.requests)} ${limit.requests === 1 ? 'request' : 'requests'} per ${WINDOW_WORD[limit.window]}`;
}

/** What the form holds: the number as typed (empty: no limit) and the window. */
export type RateLimitDraft = { requests: Requests; window: RateWindow };

export function draftOf(limit: RateLimitValue | null): RateLimitDraft {
  return limit ? { requests: limit.requests, window: limit.window } : { requests: '', window: '1m' };
}

/** The draft as the API's `rate_limit`: null when empty; a number the server judges otherwise. */
export function limitOf(draft: RateLimitDraft): RateLimitValue | null {
  const requests = requestsOf(draft.requests);
  return requests === null ? null : { requests, window: draft.window };
}

/** The words for a number the server would refuse, before asking it. */
export const requestsProblem = (draft: RateLimitDraft) => requestsProblemOf(draft.requests, 'no limit');
