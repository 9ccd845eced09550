import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ApiKeyView, createKeyBodySchema, KeyAuthority, UpdateKeyInput } from '@contracts';
import { request } from '../shared/api-client.ts';

export type { KeyAuthority };
export type ApiKey = ApiKeyView;
export type KeyList = { data: ApiKey[]; authority: KeyAuthority };
export type CreateKeyBody = z.infer<typeof createKeyBodySchema>;
export type CreatedKey = { api_key: ApiKey; secret: string };
export type KeyChanges = UpdateKeyInput;

export const keysKey = ['api-keys'] as const;
export const KEYS_PAGE = '/backoffice/settings/api-keys';

const fetchKeys = () => request<KeyList>('GET', '/api-keys');

export function useKeys(enabled = true) {
  return useQuery({ queryKey: keysKey, queryFn: fetchKeys, enabled });
}

/**
 * Opening the keys page: ask for the list alongside the session instead of after it (one round
 * trip less before the first rows). A signed-out or forbidden answer changes nothing: the page
 * is decided by the session, as without it.
 */
export function prefetchKeysOnKeysPage(queryClient: QueryClient, pathname: string): void {
  if (pathname.replace(/\/+$/, '') === KEYS_PAGE)
    void queryClient.prefetchQuery({ queryKey: keysKey, queryFn: fetchKeys });
}

/**
 * Creates a key. The response holds the secret, so the mutation is never kept in the cache
 * (`gcTime: 0`); only the secret-free `api_key` is added to the list.
 */
export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateKeyBody) => request<CreatedKey>('POST', '/api-keys', body),
    gcTime: 0,
    onSuccess: ({ api_key }) => {
      queryClient.setQueryData<KeyList>(keysKey, (list) => (list ? { ...list, data: [api_key, ...list.data] } : list));
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

type Toggle = { key: ApiKey; enabled: boolean };

/** Enable/disable shows at once; on failure the row goes back as it was and `onFailure` explains. */
export function useSetKeyEnabled(onFailure: (error: unknown, variables: Toggle) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, enabled }: Toggle) => request<ApiKey>('PATCH', keyPath(key), { enabled }),
    onMutate: async ({ key, enabled }) => {
      await queryClient.cancelQueries({ queryKey: keysKey });
      const previous = queryClient.getQueryData<KeyList>(keysKey);
      queryClient.setQueryData<KeyList>(
        keysKey,
        (list) => list && replaceKey(list, { ...key, enabled, status: enabled ? 'enabled' : 'disabled' }),
      );
      return { previous };
    },
    onError: (error, variables, context) => {
      if (context?.previous) queryClient.setQueryData(keysKey, context.previous);
      onFailure(error, variables);
    },
    onSuccess: async (updated) => {
      // A list read still in flight may have left before this change: landing after it, it would
      // put the old key back on screen until the next read. Dropped; the read below is fresh.
      await queryClient.cancelQueries({ queryKey: keysKey });
      queryClient.setQueryData<KeyList>(keysKey, (list) => list && replaceKey(list, updated));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keysKey });
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

export function useDeleteKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: ApiKey) => request<void>('DELETE', keyPath(key)),
    onSuccess: (_nothing, key) => {
      queryClient.setQueryData<KeyList>(
        keysKey,
        (list) => list && { ...list, data: list.data.filter((each) => each.id !== key.id) },
      );
      void queryClient.invalidateQueries({ queryKey: keysKey });
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

/**
 * Changes a key's settings (rate limit, quota, allowed addresses) with PATCH; the list, and so the open
 * drawer, shows the answer.
 */
export const useUpdateKey = () =>
  useKeyChange(({ key, changes }: { key: ApiKey; changes: KeyChanges }) =>
    request<ApiKey>('PATCH', keyPath(key), changes),
  );

/** Sets what the current period of a key's quota has used back to 0. */
export const useResetQuota = () =>
  useKeyChange((key: ApiKey) => request<ApiKey>('POST', `${keyPath(key)}/quota/reset`));

/** A change whose answer is the key as it now is: it replaces the key in the list. */
export function useKeyChange<Variables>(mutationFn: (variables: Variables) => Promise<ApiKey>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (updated) => {
      // A list read still in flight may have left before this change: landing after it, it would
      // put the old key back on screen until the next read. Dropped; the read below is fresh.
      await queryClient.cancelQueries({ queryKey: keysKey });
      queryClient.setQueryData<KeyList>(keysKey, (list) => list && replaceKey(list, updated));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keysKey });
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

export const keyPath = (key: Pick<ApiKey, 'id'>) => `/api-keys/${encodeURIComponent(key.id)}`;

function replaceKey(list: KeyList, key: ApiKey): KeyList {
  return { ...list, data: list.data.map((each) => (each.id === key.id ? key : each)) };
}
