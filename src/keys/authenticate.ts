import { KeyRejectedError, TooManyRequestsError, UnavailableError } from '../shared/errors.ts';
import { extractPresentedKey, type PresentedKeySources } from './extract.ts';
import type { CheckOutcome, KeyCheck } from './key-check.ts';
import type { Principal } from './key-schemas.ts';

/**
 * The one entry point REST and MCP share: find the key in the request, check it, and return
 * the principal or throw the matching catalogued error. Transport-agnostic on purpose.
 * Synchronous when the key check answers from its cache (the common case), a promise otherwise.
 */
export function authenticate(keyCheck: KeyCheck, sources: PresentedKeySources, client: string): Principal | Promise<Principal> {
  const presented = extractPresentedKey(sources);
  if (presented.kind === 'none') throw new KeyRejectedError('api_key_missing');
  if (presented.kind === 'ambiguous') throw new KeyRejectedError('api_key_ambiguous');
  const outcome = keyCheck.check(presented.secret, client);
  if (!(outcome instanceof Promise)) return principalOrRejection(outcome);
  return outcome.then(principalOrRejection, (error: unknown) => {
    throw new UnavailableError({ cause: error });
  });
}

function principalOrRejection(outcome: CheckOutcome): Principal {
  if (outcome.ok) return outcome.principal;
  if (outcome.reason === 'throttled') throw new TooManyRequestsError(outcome.retryAfterSeconds);
  throw new KeyRejectedError(outcome.reason);
}
