import {
  IpNotAllowedError,
  KeyRejectedError,
  TooManyRequestsError,
  UnavailableError,
  withoutStack,
  type KeyRejection,
} from '../../shared/errors.ts';
import { extractPresentedKey, type PresentedKeySources } from './extract.ts';
import type { CheckOutcome, KeyCheck, RefusedKeyHolder } from './key-check.ts';
import type { Accepted } from './decide.ts';

/** Why a request's key was not accepted: the catalogued error its problem details come from. */
export type KeyRefusal = KeyRejectedError | IpNotAllowedError | TooManyRequestsError | UnavailableError;

/**
 * The one entry point REST and MCP share: find the key in the request, check it, and return the
 * acceptance (the principal and the key's rate limit) or the refusal. Transport-agnostic on
 * purpose. Synchronous when the key check answers from what it knows (a cached key, a client it
 * knows to be blocked), a promise otherwise.
 * A refusal is returned, not thrown: a flood of guesses is thousands of them a second, and a
 * throw costs V8 a walk of the stack even when it is caught (docs/performance.md).
 */
export function authenticate(
  keyCheck: KeyCheck,
  sources: PresentedKeySources,
  client: string,
  seen?: RefusedKeyHolder,
): Accepted | KeyRefusal | Promise<Accepted | KeyRefusal> {
  const presented = extractPresentedKey(sources);
  if (presented.kind === 'none') return rejection('api_key_missing');
  if (presented.kind === 'ambiguous') return rejection('api_key_ambiguous');
  const outcome = keyCheck.check(presented.secret, client, seen);
  if (!(outcome instanceof Promise)) return principalOrRefusal(outcome);
  return outcome.then(principalOrRefusal, (error: unknown) => new UnavailableError({ cause: error }));
}

function principalOrRefusal(outcome: CheckOutcome): Accepted | KeyRefusal {
  if (outcome.ok) return outcome;
  if (outcome.reason === 'throttled') return throttled(outcome.retryAfterSeconds);
  if (outcome.reason === 'api_key_ip_not_allowed') return addressRefusal(outcome.client);
  return rejection(outcome.reason);
}

// Refusals are answers, not faults, and they all look alike: one frozen instance per code (and
// per Retry-After), built once without a stack, so a refusal allocates nothing and its body is
// serialised once (sendError): building one per request shows in a flood's CPU profile
// (docs/performance.md).
const rejections = new Map<KeyRejection, KeyRejectedError>();
const throttles = new Map<number, TooManyRequestsError>();
const addressRefusals = new Map<string, IpNotAllowedError>();

/** One per client address (its detail names it), bounded like the throttles' set. */
function addressRefusal(client: string): IpNotAllowedError {
  let refusal = addressRefusals.get(client);
  if (!refusal) {
    if (addressRefusals.size >= 3600) addressRefusals.clear();
    addressRefusals.set(client, (refusal = Object.freeze(withoutStack(() => new IpNotAllowedError(client)))));
  }
  return refusal;
}

function rejection(code: KeyRejection): KeyRejectedError {
  let refusal = rejections.get(code);
  if (!refusal) rejections.set(code, (refusal = Object.freeze(withoutStack(() => new KeyRejectedError(code)))));
  return refusal;
}

function throttled(retryAfterSeconds: number): TooManyRequestsError {
  let refusal = throttles.get(retryAfterSeconds);
  if (!refusal) {
    // One per second a block can still last (60 for the key check); a bound all the same.
    if (throttles.size >= 3600) throttles.clear();
    throttles.set(
      retryAfterSeconds,
      (refusal = Object.freeze(withoutStack(() => new TooManyRequestsError(retryAfterSeconds)))),
    );
  }
  return refusal;
}
