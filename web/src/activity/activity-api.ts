import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEventView } from '@contracts';
import { request } from '../shared/api-client.ts';

export type AuditEvent = AuditEventView;
export type AuditPage = { data: AuditEvent[]; next_cursor: string | null };

const PAGE_SIZE = 25;

/** The tenant's audit trail, newest first, a page at a time. */
export function useAuditEvents(enabled = true) {
  return useInfiniteQuery({
    queryKey: ['audit-events'],
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (pageParam) query.set('cursor', pageParam);
      return request<AuditPage>('GET', `/audit-events?${query}`);
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
