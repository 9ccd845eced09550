import type { ApiKey } from './keys-api.ts';
import { isRetiring } from './key-times.ts';

/** The statuses the list filters by; "retiring" and "leaked" cut across the key's own status. */
export const STATUS_FILTERS = [
  { value: 'all', label: 'All statuses' },
  { value: 'enabled', label: 'Enabled' },
  { value: 'disabled', label: 'Disabled' },
  { value: 'expired', label: 'Expired' },
  { value: 'retiring', label: 'Retiring (rolled)' },
  { value: 'leaked', label: 'Reported leaked' },
] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

export const PAGE_SIZE = 50;

export function isStatusFilter(value: string): value is StatusFilter {
  return STATUS_FILTERS.some((filter) => filter.value === value);
}

export function matchesStatus(key: ApiKey, filter: StatusFilter, now: Date): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'enabled':
    case 'disabled':
    case 'expired':
      return key.status === filter;
    case 'retiring':
      return isRetiring(key, now);
    case 'leaked':
      return key.disabled_reason === 'leaked';
  }
}

/** Lower-case, and "..." as the hint's ellipsis, so `ask_...Xy9Z`, `ask_…xy9z` and `xy9z` all find a key. */
function normalise(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/\.\.\./g, '…');
}

/** Name or hint contains the query (case-insensitive); an empty query matches every key. */
export function matchesQuery(key: ApiKey, query: string): boolean {
  const wanted = normalise(query);
  if (!wanted) return true;
  return key.name.toLowerCase().includes(wanted) || key.hint.toLowerCase().includes(wanted);
}

export function filterKeys(keys: readonly ApiKey[], query: string, status: StatusFilter, now: Date): ApiKey[] {
  return keys.filter((key) => matchesQuery(key, query) && matchesStatus(key, status, now));
}

export type Page<T> = { items: T[]; page: number; pages: number; first: number; last: number; total: number };

/** One page of `items` (1-based, clamped to the pages there are); `first`/`last` are 1-based positions. */
export function pageOf<T>(items: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Math.floor(page)), pages);
  const start = (current - 1) * size;
  const slice = items.slice(start, start + size);
  return {
    items: slice,
    page: current,
    pages,
    first: slice.length ? start + 1 : 0,
    last: start + slice.length,
    total: items.length,
  };
}

/** "Showing 51–100 of 1,000 keys", "3 of 1,000 keys match", "No keys match (1,000 in all)", "1 key". */
export function pageSummary(page: Page<unknown>, everything: number): string {
  const number = (n: number) => n.toLocaleString('en-GB');
  const keys = (n: number) => `${number(n)} ${n === 1 ? 'key' : 'keys'}`;
  const filtered = page.total !== everything;
  if (page.total === 0) return `No keys match (${number(everything)} in all)`;
  if (page.pages === 1)
    return filtered
      ? `${number(page.total)} of ${keys(everything)} ${page.total === 1 ? 'matches' : 'match'}`
      : keys(page.total);
  const range = `Showing ${number(page.first)}–${number(page.last)} of`;
  return filtered
    ? `${range} ${number(page.total)} matching keys (${number(everything)} in all)`
    : `${range} ${keys(page.total)}`;
}
