import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { isApiError, request } from '../shared/api-client.ts';

/** What a passkey answers for: signing in alone, the second-factor step, or re-authenticating. */
export type AssertionPurpose = 'sign_in' | 'second_factor' | 'reauthenticate';

/** The server's challenge, then the browser's passkey prompt; the signed answer goes back to the server. */
export async function passkeyAssertion(purpose: AssertionPurpose): Promise<unknown> {
  const optionsJSON = await request<PublicKeyCredentialRequestOptionsJSON>('POST', '/session/passkey/options', {
    purpose,
  });
  return startAuthentication({ optionsJSON });
}

/** A new passkey: the server's creation options, then the browser's prompt to make one. */
export async function passkeyRegistration(): Promise<unknown> {
  const optionsJSON = await request<PublicKeyCredentialCreationOptionsJSON>('POST', '/me/passkeys/options');
  return startRegistration({ optionsJSON });
}

/** A failed passkey prompt in a person's words: the browser's errors say little on their own. */
export function passkeyErrorText(error: unknown): string {
  if (isApiError(error)) return error.detail;
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return 'The passkey prompt was closed or timed out. Try again when you are ready.';
  }
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (name === 'NotSupportedError') return 'This browser cannot use passkeys.';
  if (name === 'SecurityError')
    return 'Passkeys need the back office opened by its name (e.g. localhost), not by an IP address.';
  return 'The passkey could not be used. Try again, or use another way.';
}
