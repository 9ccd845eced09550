import { KeyRejectedError, TooManyRequestsError, UnavailableError } from '../shared/errors.ts';
import { extractPresentedKey, type PresentedKeySources } from './extract.ts';
import type { KeyCheck } from './key-check.ts';
import type { Principal } from './principal.ts';

/**
 * The one entry point REST and MCP share: find the key in the request, check it, and return
 * the principal or throw the matching catalogued error. Transport-agnostic on purpose.
 */
export async function authenticate(keyCheck: KeyCheck, sources: PresentedKeySources, client: string): Promise<Principal> {
  const presented = extractPresentedKey(sources);
  if (presented.kind === 'none') throw new KeyRejectedError('api_key_missing');
  if (presented.kind === 'ambiguous') throw new KeyRejectedError('api_key_ambiguous');
  let outcome;
  try {
    outcome = await keyCheck.check(presented.secret, client);
  } catch (error) {
    throw new UnavailableError({ cause: error });
  }
  if (outcome.ok) return outcome.principal;
  if (outcome.reason === 'throttled') throw new TooManyRequestsError(outcome.retryAfterSeconds);
  throw new KeyRejectedError(outcome.reason);
}
