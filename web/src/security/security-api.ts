import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PasskeyView, SecondFactorsView, SessionListItem, SignInSettings, SignInSettingsPatch } from '@contracts';
import { request } from '../shared/api-client.ts';
import { passkeyRegistration } from '../session/passkey-ceremonies.ts';
import { sessionKey } from '../session/session-api.ts';

export type Security = { second_factors: SecondFactorsView; sessions: SessionListItem[] };
export type { PasskeyView, SessionListItem, SignInSettings };
/** Ten codes, shown once: held in the page's state until the person closes the dialog, nowhere else. */
export type RecoveryCodes = { recovery_codes: string[] | null };

export const securityKey = ['me', 'security'] as const;
const settingsKey = ['sign-in-settings'] as const;

export function useSecurity() {
  return useQuery({ queryKey: securityKey, queryFn: () => request<Security>('GET', '/me/security') });
}

/**
 * A change to one's own factors or sessions: the Security page reloads, and so does the session
 * (its second-factor methods decide the re-authentication dialog and the banner).
 */
function useSecurityMutation<Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // Codes and passwords must not linger in the mutation cache.
    gcTime: 0,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: securityKey });
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}

export const useEndSession = () =>
  useSecurityMutation((session: SessionListItem) =>
    request<void>('DELETE', `/me/sessions/${encodeURIComponent(session.id)}`),
  );

export const useEndOtherSessions = () => useSecurityMutation(() => request<void>('DELETE', '/me/sessions'));

export const useBeginTotp = () =>
  useSecurityMutation(() => request<{ secret: string; otpauth_uri: string }>('POST', '/me/totp'));

export const useConfirmTotp = () =>
  useSecurityMutation((code: string) => request<RecoveryCodes>('POST', '/me/totp/confirm', { code }));

export const useRemoveTotp = () => useSecurityMutation(() => request<void>('DELETE', '/me/totp'));

/** The browser makes the passkey (its own prompt), then the server keeps its public key under the name. */
export const useAddPasskey = () =>
  useSecurityMutation(async (name: string) => {
    const response = await passkeyRegistration();
    return request<{ passkey: PasskeyView } & RecoveryCodes>('POST', '/me/passkeys', { name, response });
  });

export const useRemovePasskey = () =>
  useSecurityMutation((passkey: PasskeyView) =>
    request<void>('DELETE', `/me/passkeys/${encodeURIComponent(passkey.id)}`),
  );

export const useRegenerateRecoveryCodes = () =>
  useSecurityMutation(() => request<{ recovery_codes: string[] }>('POST', '/me/recovery-codes'));

export const useChangePassword = () =>
  useSecurityMutation((body: { current_password: string; new_password: string }) =>
    request<void>('PUT', '/me/password', body),
  );

/** The organisation's sign-in rules: System Administrators only. */
export function useSignInSettings(enabled: boolean) {
  return useQuery({
    queryKey: settingsKey,
    queryFn: () => request<SignInSettings>('GET', '/sign-in-settings'),
    enabled,
  });
}

export function useUpdateSignInSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SignInSettingsPatch) => request<SignInSettings>('PATCH', '/sign-in-settings', patch),
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKey, settings);
      // Whether this very session is enrolment-only may have changed.
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}

export const useEndTenantSessions = () => useSecurityMutation(() => request<void>('DELETE', '/sessions'));
