import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { RequestLogEntry, RequestLogPage, RequestOutcome } from '@contracts';
import { request } from '../shared/api-client.ts';

export type { RequestLogEntry, RequestOutcome };

/** The filters as the page holds them: text fields, empty when unused. */
export type RequestFilters = {
  key: string;
  outcome: RequestOutcome | '';
  status: string;
  address: string;
  from: string;
  to: string;
};

export const NO_FILTERS: RequestFilters = { key: '', outcome: '', status: '', address: '', from: '', to: '' };

const PAGE_SIZE = 50;

/** The query string of the filters in use; `from`/`to` are date-times in UTC, as the table shows every time. */
export function filterQuery(filters: RequestFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters) as Array<[keyof RequestFilters, string]>) {
    const text = value.trim();
    if (text === '') continue;
    query.set(name, name === 'from' || name === 'to' ? `${text}Z` : text);
  }
  return query;
}

/** The tenant's requests matching `filters`, newest first, a page at a time. */
export function useRequestLog(filters: RequestFilters) {
  return useInfiniteQuery({
    queryKey: ['request-log', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query = filterQuery(filters);
      query.set('limit', String(PAGE_SIZE));
      if (pageParam) query.set('cursor', pageParam);
      return request<RequestLogPage>('GET', `/request-log?${query}`);
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** A key's latest requests, for its view. */
export function useKeyRequests(keyId: string, limit = 10) {
  return useQuery({
    queryKey: ['request-log', 'key', keyId, limit],
    queryFn: () => request<RequestLogPage>('GET', `/request-log?key=${encodeURIComponent(keyId)}&limit=${limit}`),
  });
}

/** Where the browser downloads the filtered log as NDJSON (a plain GET with the session cookie). */
export function exportHref(filters: RequestFilters): string {
  const query = filterQuery(filters).toString();
  return `/backoffice/api/request-log/export${query ? `?${query}` : ''}`;
}
