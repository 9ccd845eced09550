import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientAddress } from '@contracts';
import { request } from '../shared/api-client.ts';
import { keysKey, type ApiKey, type KeyList } from './keys-api.ts';

/** The caller's own address as the server sees it, offered as an allowlist entry. */
export function useClientAddress(enabled = true) {
  return useQuery({
    queryKey: ['client-address'],
    queryFn: () => request<ClientAddress>('GET', '/client-address'),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** Changes or removes (null) a key's allowlist; the list, and so the open drawer, shows the answer. */
export function useSetAllowedIps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, allowedIps }: { key: ApiKey; allowedIps: string[] | null }) =>
      request<ApiKey>('PATCH', `/api-keys/${encodeURIComponent(key.id)}`, { allowed_ips: allowedIps }),
    onSuccess: (updated) =>
      queryClient.setQueryData<KeyList>(
        keysKey,
        (list) => list && { ...list, data: list.data.map((each) => (each.id === updated.id ? updated : each)) },
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keysKey });
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}
