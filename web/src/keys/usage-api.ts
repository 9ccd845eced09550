import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../shared/api-client.ts';

// Defined here from SPEC §4 until the server's usage schemas land; then taken from @contracts.
export const USAGE_WINDOWS = ['24h', '7d', '30d'] as const;
export type UsageWindow = (typeof USAGE_WINDOWS)[number];
export type UsageCounts = { ok: number; rejected: number };
/** One bucket: `start` is the hour or the UTC day it counts from. */
export type UsagePoint = UsageCounts & { start: string };
/** Hourly buckets for 24h, daily for 7d and 30d; oldest first, empty buckets included. */
export type Usage = { window: UsageWindow; bucket: 'hour' | 'day'; series: UsagePoint[]; total: UsageCounts };
export type TopKey = UsageCounts & { id: string; name: string; hint: string };
export type TenantUsage = Usage & { top_keys: TopKey[] };

// Counts reach the database every USAGE_FLUSH_MS (seconds), so a minute-old chart is close enough.
const STALE_MS = 30_000;

export function useTenantUsage(window: UsageWindow) {
  return useQuery({
    queryKey: ['usage', 'tenant', window],
    queryFn: () => request<TenantUsage>('GET', `/usage?window=${window}`),
    staleTime: STALE_MS,
    // Switching windows keeps the old chart on screen until the new one arrives: no jump.
    placeholderData: keepPreviousData,
  });
}

/** One key's usage; `enabled` lets the list ask only for rows the user can see. */
export function useKeyUsage(keyId: string, window: UsageWindow, enabled = true) {
  return useQuery({
    queryKey: ['usage', 'key', keyId, window],
    queryFn: () => request<Usage>('GET', `/api-keys/${encodeURIComponent(keyId)}/usage?window=${window}`),
    staleTime: STALE_MS,
    enabled,
    // Keep this key's chart while its window changes, never another key's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === keyId ? previous : undefined),
  });
}
