import { useQuery } from '@tanstack/react-query';
import type { ClientAddress } from '@contracts';
import { request } from '../shared/api-client.ts';

/** The caller's own address as the server sees it, offered as an allowlist entry. */
export function useClientAddress(enabled = true) {
  return useQuery({
    queryKey: ['client-address'],
    queryFn: () => request<ClientAddress>('GET', '/client-address'),
    staleTime: 5 * 60_000,
    enabled,
  });
}
