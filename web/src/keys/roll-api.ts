import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../shared/api-client.ts';
import { keyPath, keysKey, type ApiKey, type KeyList } from './keys-api.ts';

import type { RolledKey, RollKeyInput, RollOverlap } from '@contracts';

export type { RolledKey, RollOverlap };
export type RollKeyBody = RollKeyInput;
/** The overlaps the dialog offers, in order; the server's schema is the authority on what is valid. */
export const ROLL_OVERLAPS = ['none', '1h', '24h', '7d'] as const satisfies readonly RollOverlap[];

/**
 * Rolls a key. Like creating, the response holds a secret, so the mutation is not kept
 * (`gcTime: 0`); the list gains the new key and shows the old one retiring (or gone).
 */
export function useRollKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, overlap, expiresAt }: { key: ApiKey; overlap: RollOverlap; expiresAt?: string | null }) =>
      request<RolledKey>('POST', `${keyPath(key)}/roll`, {
        overlap,
        ...(expiresAt ? { expires_at: expiresAt } : {}),
      } satisfies RollKeyBody),
    gcTime: 0,
    onSuccess: ({ api_key, previous }, { key }) => {
      queryClient.setQueryData<KeyList>(keysKey, (list) => list && afterRoll(list, key.id, api_key, previous));
      void queryClient.invalidateQueries({ queryKey: keysKey });
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

/** The list after a roll: the new key first, the old one replaced by its retiring self or removed. */
export function afterRoll(list: KeyList, oldId: string, added: ApiKey, previous: ApiKey | null): KeyList {
  const others = list.data.flatMap((each) => (each.id !== oldId ? [each] : previous ? [previous] : []));
  return { ...list, data: [added, ...others.filter((each) => each.id !== added.id)] };
}
