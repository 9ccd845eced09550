import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { permissionsOf, type Permission } from '@contracts';
import { isApiError, request, setCsrfToken } from '../shared/api-client.ts';
import type { User } from '../users/users-api.ts';

export type Session = { user: User; csrf_token: string };

export const sessionKey = ['session'] as const;

/** The signed-in user, or `null` when there is no session (401 is an answer here, not an error). */
export function useSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: async (): Promise<Session | null> => {
      try {
        const session = await request<Session>('GET', '/session');
        setCsrfToken(session.csrf_token);
        return session;
      } catch (error) {
        if (isApiError(error, 'not_authenticated')) {
          setCsrfToken(undefined);
          return null;
        }
        throw error;
      }
    },
    retry: false,
    staleTime: 60_000,
  });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => request<Session>('POST', '/session', body),
    // The password stays in no cache once the request is done.
    gcTime: 0,
    onSuccess: (session) => {
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(sessionKey, session);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<void>('DELETE', '/session'),
    onSettled: () => {
      setCsrfToken(undefined);
      // Nothing of the last user's data may outlive the session in memory.
      queryClient.clear();
    },
  });
}

/** What the user may do, from the roles the server reported (the server still checks every call). */
export function permissionsOfSession(session: Session | null | undefined): Permission[] {
  return session ? permissionsOf(session.user.roles) : [];
}
