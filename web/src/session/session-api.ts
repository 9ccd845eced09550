import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { permissionsOf, type Permission, type SecondFactorStep, type SignedIn } from '@contracts';
import { isApiError, request, setCsrfToken } from '../shared/api-client.ts';
import { passkeyAssertion } from './passkey-ceremonies.ts';

export type Session = SignedIn;
export type SecondFactorMethod = SignedIn['second_factor_methods'][number];
/** What the password step answers: signed in, or the second factor to ask for next. */
export type SignInResult = SignedIn | SecondFactorStep;
/** A second factor as the sign-in step and re-authentication send it. */
export type SecondFactorProof =
  { method: 'totp' | 'recovery_code'; code: string } | { method: 'passkey'; response: unknown };

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

/** A new or renewed session: its CSRF token for the next changes, and the page's copy of it. */
export function adoptSession(queryClient: QueryClient, session: Session): void {
  setCsrfToken(session.csrf_token);
  queryClient.setQueryData(sessionKey, session);
}

export const isSecondFactorStep = (result: SignInResult): result is SecondFactorStep =>
  'second_factor_required' in result;

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => request<SignInResult>('POST', '/session', body),
    // The password stays in no cache once the request is done.
    gcTime: 0,
    onSuccess: (result) => {
      if (!isSecondFactorStep(result)) adoptSession(queryClient, result);
    },
  });
}

/** The second-factor step after the password (the pending cookie says who). */
export function useSecondFactorSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (proof: SecondFactorProof) => request<Session>('POST', '/session/second-factor', proof),
    gcTime: 0,
    onSuccess: (session) => adoptSession(queryClient, session),
  });
}

/** A passkey alone: the browser asks which passkey (discoverable credentials). */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const response = await passkeyAssertion('sign_in');
      return request<Session>('POST', '/session/passkey', { response });
    },
    onSuccess: (session) => adoptSession(queryClient, session),
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
  if (!session || session.enrolment_required) return [];
  return permissionsOf(session.user.roles);
}

/** Whether the person holds a second factor (recovery codes alone are not one). */
export const hasSecondFactor = (session: Session): boolean =>
  session.second_factor_methods.includes('totp') || session.second_factor_methods.includes('passkey');
