import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../shared/api-client.ts';

import type { TenantUsage, TopKey, Usage, UsageBucket, UsageWindow } from '@contracts';

export type { TenantUsage, TopKey, Usage, UsageWindow };
export type UsagePoint = UsageBucket;
export type UsageCounts = Usage['total'];
/** An outcome as the API names it (`rate_limited`): the server's USAGE_OUTCOMES, through the usage schema. */
export type UsageOutcome = keyof UsageCounts;
/** The windows the server offers, in picker order (a value: @contracts carries types only). */
export const USAGE_WINDOWS = ['24h', '7d', '30d'] as const satisfies readonly UsageWindow[];

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
