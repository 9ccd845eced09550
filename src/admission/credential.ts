import { extractPresentedKey, type KeyCredential, type PresentedKeySources } from '../keys/check/extract.ts';
import type { CheckOutcome, KeyCheck, RefusedKeyHolder } from '../keys/check/key-check.ts';
import { KEY_PREFIX } from '../keys/format/secret.ts';
import type { CredentialOutcome } from './outcome.ts';

/**
 * Where a request may carry its credential (docs/api.md): X-API-Key, a bearer token, `?api_key=`;
 * and the path it was sent to, which names the resource an access token must be for.
 */
export type CredentialSources = PresentedKeySources & { path: string };

/**
 * An OAuth access token (docs/oauth.md): `Authorization: Bearer` with a value that is not an
 * `ask_` key, and no other credential beside it. `path` is the request's, for its audience.
 */
export type OAuthCredential = { kind: 'oauth'; token: string; path: string };

/** A credential found in a request, before it is checked: an API key or an access token. */
export type Credential = KeyCredential | OAuthCredential;

/**
 * The state and address steps of one kind of credential: whom it names and whether it may act now
 * from `client`. A refused key of a tenant lands on `seen.refusedKey`, for the request log.
 * Synchronous when it answers from what it knows; a rejected promise is a 503 `unavailable`.
 */
export type CredentialResolver<C extends Credential> = {
  resolve(
    credential: C,
    client: string,
    seen: RefusedKeyHolder | undefined,
  ): CredentialOutcome | Promise<CredentialOutcome>;
};

/** One resolver per kind of credential: adding a kind is one member more. */
export type CredentialResolvers = { [K in Credential['kind']]: CredentialResolver<Extract<Credential, { kind: K }>> };

/** The credential in the request, none, or two different ones (never silently one of them). */
export function findCredential(sources: CredentialSources): Credential | { kind: 'none' } | { kind: 'ambiguous' } {
  const found = extractPresentedKey(sources);
  // A token in the header only (RFC 9728 bearer_methods_supported: ["header"]): in the query string
  // it is an unknown key; beside a key, the two are ambiguous.
  if (
    found.kind === 'key' &&
    sources.xApiKey === undefined &&
    sources.queryKey === undefined &&
    !found.secret.startsWith(KEY_PREFIX)
  ) {
    return { kind: 'oauth', token: found.secret, path: sources.path };
  }
  return found;
}

/** An API key: the key check (src/keys/check/key-check.ts) in the admission's words. */
export function keyResolver(keyCheck: KeyCheck): CredentialResolver<KeyCredential> {
  return {
    resolve(credential, client, seen) {
      const outcome = keyCheck.check(credential.secret, client, seen);
      return outcome instanceof Promise ? outcome.then(outcomeOfKey) : outcomeOfKey(outcome);
    },
  };
}

// Refusals are answers, not faults, and they all look alike: one frozen outcome per status (and
// per wait, per address), so a flood of refusals allocates nothing here (docs/performance.md).
const INVALID = Object.freeze({ status: 'invalid' as const });
const DISABLED = Object.freeze({ status: 'disabled' as const });
const EXPIRED = Object.freeze({ status: 'expired' as const });
const throttles = new Map<number, CredentialOutcome>();
const addressRefusals = new Map<string, CredentialOutcome>();

function outcomeOfKey(outcome: CheckOutcome): CredentialOutcome {
  if (outcome.ok) return outcome;
  switch (outcome.reason) {
    case 'api_key_invalid':
      return INVALID;
    case 'api_key_disabled':
      return DISABLED;
    case 'api_key_expired':
      return EXPIRED;
    case 'throttled':
      return throttled(outcome.retryAfterSeconds);
    case 'api_key_ip_not_allowed':
      return addressRefused(outcome.client);
  }
}

function throttled(retryAfterSeconds: number): CredentialOutcome {
  let refusal = throttles.get(retryAfterSeconds);
  if (!refusal) {
    // One per second a block can still last (60 for the key check); a bound all the same.
    if (throttles.size >= 3600) throttles.clear();
    throttles.set(retryAfterSeconds, (refusal = Object.freeze({ status: 'throttled', retryAfterSeconds })));
  }
  return refusal;
}

/** One per client address, bounded like the throttles'. */
function addressRefused(client: string): CredentialOutcome {
  let refusal = addressRefusals.get(client);
  if (!refusal) {
    if (addressRefusals.size >= 3600) addressRefusals.clear();
    addressRefusals.set(client, (refusal = Object.freeze({ status: 'address_refused', client })));
  }
  return refusal;
}
