import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../shared/api-client.ts';
import { keysKey, type ApiKey, type KeyList } from './keys-api.ts';
import type { RateLimitValue } from './rate-limit-text.ts';

/** Changes or removes (null) a key's rate limit; the list, and so the open drawer, shows the answer. */
export function useSetRateLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, limit }: { key: ApiKey; limit: RateLimitValue | null }) =>
      request<ApiKey>('PATCH', `/api-keys/${encodeURIComponent(key.id)}`, { rate_limit: limit }),
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
