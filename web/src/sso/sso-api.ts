import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignInSettings, SsoSettingsInput, SsoTestResult } from '@contracts';
import { request } from '../shared/api-client.ts';

export const signInSettingsKey = ['sign-in-settings'] as const;

/** The tenant's sign-in settings, single sign-on included (System Administrators only). */
export function useSignInSettings(enabled = true) {
  return useQuery({
    queryKey: signInSettingsKey,
    queryFn: () => request<SignInSettings>('GET', '/sign-in-settings'),
    enabled,
  });
}

/** Saves the provider (or removes it with null); the answer replaces the cached settings. */
export function useSaveSso() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { sso?: SsoSettingsInput | null; password_sign_in?: boolean }) =>
      request<SignInSettings>('PATCH', '/sign-in-settings', change),
    onSuccess: (settings) => {
      queryClient.setQueryData(signInSettingsKey, settings);
      void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
    },
  });
}

/** "Test the connection": discovery of the issuer typed (or the saved one), nothing saved. */
export function useTestSso() {
  return useMutation({
    mutationFn: (issuer: string | undefined) =>
      request<SsoTestResult>('POST', '/sign-in-settings/sso/test', issuer ? { issuer } : {}),
  });
}
