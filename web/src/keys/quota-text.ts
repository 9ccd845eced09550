import type { ApiKey } from './keys-api.ts';
import { requestsOf, requestsProblemOf, type Requests } from './limit-draft.ts';

export type QuotaView = NonNullable<ApiKey['quota']>;
export type QuotaValue = Pick<QuotaView, 'requests' | 'period'>;
export type QuotaPeriod = QuotaValue['period'];
/** Where the server's errors about a quota point. */
export const QUOTA_FIELDS = ['quota.requests', 'quota.period', 'quota'];

/** The periods a quota may count over, in the words the form offers (docs/keys.md (Quotas)). */
export const QUOTA_PERIODS: ReadonlyArray<{ value: QuotaPeriod; label: string }> = [
  { value: 'day', label: 'requests a day' },
  { value: 'month', label: 'requests a month' },
  { value: 'total', label: 'requests in total' },
];

const count = new Intl.NumberFormat('en-GB');
const PERIOD_WORD: Record<QuotaPeriod, string> = { day: 'a day', month: 'a month', total: 'in total' };
const CURRENT_PERIOD: Record<QuotaPeriod, string> = { day: 'today', month: 'this month', total: 'in total' };

/** "10,000 requests a month", "1 request a day", "50,000 requests in total", or "No quota". */
export function quotaText(quota: QuotaValue | null): string {
  if (!quota) return 'No quota';
  return `${count.format(quota.requests)} ${quota.requests === 1 ? 'request' : 'requests'} ${PERIOD_WORD[quota.period]}`;
}

/** "1,234 of 10,000 this month": what the bar shows, in words. */
export function quotaUsedText(quota: QuotaView): string {
  return `${count.format(quota.used)} of ${count.format(quota.requests)} ${CURRENT_PERIOD[quota.period]}`;
}

/** How full the bar is, 0 to 100 (a lowered quota can be over-used: the bar stops at full). */
export function quotaPercent(quota: QuotaView): number {
  return Math.min(100, (quota.used / quota.requests) * 100);
}

/** What the form holds: the number as typed (empty: no quota) and the period. */
export type QuotaDraft = { requests: Requests; period: QuotaPeriod };

export function quotaDraftOf(quota: QuotaValue | null): QuotaDraft {
  return quota ? { requests: quota.requests, period: quota.period } : { requests: '', period: 'month' };
}

/** The draft as the API's `quota`: null when empty; a number the server judges otherwise. */
export function quotaOf(draft: QuotaDraft): QuotaValue | null {
  const requests = requestsOf(draft.requests);
  return requests === null ? null : { requests, period: draft.period };
}

export const quotaProblem = (draft: QuotaDraft) => requestsProblemOf(draft.requests, 'no quota');
