import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createUserBodySchema, updateUserBodySchema, UserListItem, userSchema } from '@contracts';
import { request } from '../shared/api-client.ts';

export type User = z.infer<typeof userSchema>;
/** A user in the list: with whether they hold a second factor. */
export type ListedUser = UserListItem;
export type CreateUserBody = z.infer<typeof createUserBodySchema>;
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const usersKey = ['users'] as const;

export function useUsers() {
  return useQuery({ queryKey: usersKey, queryFn: () => request<{ data: ListedUser[] }>('GET', '/users') });
}

function useUserMutation<Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    gcTime: 0, // a new user's password must not linger in the mutation cache
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: usersKey });
      // Roles decide what creator-bound keys may do, and deleting a user disables their keys.
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

export const useCreateUser = () => useUserMutation((body: CreateUserBody) => request<User>('POST', '/users', body));

export const useUpdateUser = () =>
  useUserMutation(({ id, ...body }: UpdateUserBody & { id: string }) =>
    request<User>('PATCH', `/users/${encodeURIComponent(id)}`, body),
  );

export const useDeleteUser = () =>
  useUserMutation((user: User) => request<void>('DELETE', `/users/${encodeURIComponent(user.id)}`));

/** Signs the user out everywhere (a lost laptop); they sign in again as usual. */
export const useEndUserSessions = () =>
  useUserMutation((user: User) => request<void>('DELETE', `/users/${encodeURIComponent(user.id)}/sessions`));

/** A lost phone: the user's second factors and recovery codes are removed, and their sessions end. */
export const useResetSecondFactors = () =>
  useUserMutation((user: User) => request<void>('DELETE', `/users/${encodeURIComponent(user.id)}/second-factors`));
