import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OAuthGrantView } from '@contracts';
import { request } from '../shared/api-client.ts';

export type { OAuthGrantView };

/** Whose grants: the person's own (Security page) or the organisation's (API keys page). */
export type GrantScope = 'mine' | 'all';

const grantsKey = ['oauth-grants'] as const;

export function useOAuthGrants(scope: GrantScope) {
  return useQuery({
    queryKey: [...grantsKey, scope],
    queryFn: async () =>
      (await request<{ data: OAuthGrantView[] }>('GET', `/oauth-grants${scope === 'all' ? '?all=1' : ''}`)).data,
  });
}

/** Revoking ends the grant and its tokens at once; both lists reload. */
export function useRevokeGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (grant: OAuthGrantView) => request<void>('DELETE', `/oauth-grants/${encodeURIComponent(grant.id)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: grantsKey }),
  });
}
