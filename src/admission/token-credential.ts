import type { AccessTokenCheck, TokenOutcome } from '../oauth/token-check.ts';
import type { CredentialResolver, OAuthCredential } from './credential.ts';
import type { CredentialOutcome } from './outcome.ts';

const INVALID_TOKEN = Object.freeze({ status: 'invalid_token' as const });
const throttles = new Map<number, CredentialOutcome>();

/**
 * An OAuth access token (src/oauth/token-check.ts) in the admission's words: admitted as its
 * person, with no limits of a key, or `invalid_token`. Its audience is the resource the request
 * was sent to: `/mcp` or `/api/v1` under `urls`.
 */
export function tokenResolver(
  tokens: AccessTokenCheck,
  urls: { mcp: string; api: string },
): CredentialResolver<OAuthCredential> {
  return {
    resolve(credential, client, seen) {
      const resource = credential.path.startsWith('/mcp') ? urls.mcp : urls.api;
      const outcome = tokens.check(credential.token, resource, client, seen);
      return outcome instanceof Promise ? outcome.then(outcomeOfToken) : outcomeOfToken(outcome);
    },
  };
}

function outcomeOfToken(outcome: TokenOutcome): CredentialOutcome {
  if (outcome.ok) return outcome;
  if (outcome.reason === 'invalid_token') return INVALID_TOKEN;
  let refusal = throttles.get(outcome.retryAfterSeconds);
  if (!refusal) {
    if (throttles.size >= 3600) throttles.clear();
    const retryAfterSeconds = outcome.retryAfterSeconds;
    throttles.set(retryAfterSeconds, (refusal = Object.freeze({ status: 'throttled' as const, retryAfterSeconds })));
  }
  return refusal;
}
