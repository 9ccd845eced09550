import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KeyPolicy } from '@contracts';
import { request } from '../shared/api-client.ts';

export type { KeyPolicy };
export const keyPolicyKey = ['key-policy'] as const;

/** The tenant's key policy (`GET /backoffice/api/key-policy`). */
export function useKeyPolicy(enabled = true) {
  return useQuery({ queryKey: keyPolicyKey, queryFn: () => request<KeyPolicy>('GET', '/key-policy'), enabled });
}

/** Changes the fields given; the answer is the whole policy, which replaces the cached one. */
export function useUpdateKeyPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<KeyPolicy>) => request<KeyPolicy>('PATCH', '/key-policy', change),
    onSuccess: (policy) => {
      queryClient.setQueryData(keyPolicyKey, policy);
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}
