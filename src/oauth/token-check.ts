import type { Accepted } from '../keys/check/decide.ts';
import type { RefusedKeyHolder } from '../keys/check/key-check.ts';
import type { KeyCache } from '../revocation/key-cache.ts';
import { answeredWithin } from '../shared/answered-within.ts';
import type { Clock } from '../shared/clock.ts';
import { sha256Hex } from '../shared/digest.ts';
import { InvalidTokenError, TooManyRequestsError, UnavailableError, withoutStack } from '../shared/errors.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import type { RequestCounter } from '../keys/check/usage-recorder.ts';
import { tokenFactsOf, type TokenFacts } from './token-facts.ts';
import type { AccessTokenRepository } from './token-repository.ts';

// As the key check: a read that hangs is answered 503 rather than held open.
const READ_THROUGH_TIMEOUT_MS = 2_000;
// The provider's opaque tokens are 43 base64url characters; anything far from that is no token.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

export type TokenRefusal = InvalidTokenError | TooManyRequestsError | UnavailableError;
export type TokenOutcome = Accepted | TokenRefusal;

/** One resource's check: the token, the client address, where a refused grant's principal goes. */
export type ResourceTokenCheck = (
  token: string,
  client: string,
  seen?: RefusedKeyHolder,
) => TokenOutcome | Promise<TokenOutcome>;

export type AccessTokenCheckOptions = {
  repository: Pick<AccessTokenRepository, 'findToken' | 'findPerson'>;
  /** The app's name for a client id (the provider knows registered clients and documents alike). */
  appName(clientId: string): Promise<string>;
  cache: KeyCache<TokenFacts>;
  /** The key check's throttle: a client guessing tokens is a client guessing keys. */
  throttle: FailureThrottle;
  usage: RequestCounter;
  clock: Clock;
};

const INVALID = Object.freeze(withoutStack(() => new InvalidTokenError()));

/**
 * The resource side of OAuth (docs/oauth.md): an access token checked as a key is. Its SHA-256
 * (the form oauth_records stores it in) finds its facts in an in-process cache kept exact by the
 * change feed; a known token is answered synchronously with no database read. A miss reads the
 * token, its grant, its person and their roles now, once. Refusals are `invalid_token` (unknown,
 * expired, revoked, another resource's), counted against the client like failed key checks.
 */
export class AccessTokenCheck {
  private readonly options: AccessTokenCheckOptions;
  constructor(options: AccessTokenCheckOptions) {
    this.options = options;
  }

  /** The check bound to one resource (its URL, the tokens' audience). */
  forResource(resource: string): ResourceTokenCheck {
    return (token, client, seen) => this.check(token, resource, client, seen);
  }

  check(
    token: string,
    resource: string,
    client: string,
    seen?: RefusedKeyHolder,
  ): TokenOutcome | Promise<TokenOutcome> {
    const nowMs = this.options.clock.nowMs();
    const digest = TOKEN_SHAPE.test(token) ? sha256Hex(token) : null;
    const facts = digest === null ? null : this.options.cache.get(digest);
    if (facts) {
      const accepted = this.decide(facts, resource, nowMs, seen);
      if (accepted) return accepted;
    }
    if (this.options.throttle.knownBlockSeconds(client) > 0 && facts === undefined) return this.slowly(null, client);
    if (facts === undefined) return this.lookUp(digest!, resource, nowMs, client, seen);
    return this.slowly(facts, client);
  }

  private async lookUp(
    digest: string,
    resource: string,
    nowMs: number,
    client: string,
    seen: RefusedKeyHolder | undefined,
  ): Promise<TokenOutcome> {
    const blockedFor = await this.options.throttle.retryAfter(client);
    if (blockedFor > 0) return throttled(blockedFor);
    const { cache } = this.options;
    const epoch = cache.currentEpoch();
    let facts: TokenFacts | null | undefined;
    try {
      facts = await answeredWithin(this.read(digest), READ_THROUGH_TIMEOUT_MS);
      cache.fill(digest, facts, epoch);
    } catch (error) {
      // As for keys: what this instance last saw holds while its lease does, never after.
      facts = cache.lastKnown(digest);
      if (facts === undefined) return new UnavailableError({ cause: error });
    }
    const accepted = facts && this.decide(facts, resource, nowMs, seen);
    return accepted || this.slowly(facts, client);
  }

  /** A refusal: counted against the client (a blocked client is told so). */
  private async slowly(facts: TokenFacts | null, client: string): Promise<TokenOutcome> {
    const blockedFor = await this.options.throttle.retryAfter(client);
    if (blockedFor > 0) return throttled(blockedFor);
    // A real grant's token sent to the wrong resource is a mistake of the app, not a guess.
    if (facts === null) await this.options.throttle.recordFailure(client);
    return INVALID;
  }

  private decide(facts: TokenFacts, resource: string, nowMs: number, seen: RefusedKeyHolder | undefined) {
    if (nowMs >= facts.expiresAtMs) return undefined;
    if (facts.audience !== resource) {
      if (seen) seen.refusedKey = facts.principal;
      this.options.usage.rejected(facts.keyId, facts.tenantId, nowMs);
      return undefined;
    }
    this.options.usage.ok(facts.keyId, facts.tenantId, nowMs);
    return {
      ok: true,
      principal: facts.principal,
      keyId: facts.keyId,
      rateLimit: undefined,
      quota: undefined,
    } as const;
  }

  private async read(digest: string): Promise<TokenFacts | null> {
    const { repository } = this.options;
    const token = await repository.findToken(digest);
    if (!token) return null;
    const person = await repository.findPerson(token.accountId);
    if (!person) return null;
    return tokenFactsOf({
      grantId: token.grantId,
      audience: token.audience,
      expiresAtMs: token.expiresAt.getTime(),
      app: { clientId: token.clientId, name: await this.options.appName(token.clientId) },
      person: { id: person.id, email: person.email, roles: person.roles },
      tenant: person.tenant,
    });
  }
}

const throttles = new Map<number, TooManyRequestsError>();
function throttled(retryAfterSeconds: number): TooManyRequestsError {
  let refusal = throttles.get(retryAfterSeconds);
  if (!refusal) {
    if (throttles.size >= 3600) throttles.clear();
    throttles.set(
      retryAfterSeconds,
      (refusal = Object.freeze(withoutStack(() => new TooManyRequestsError(retryAfterSeconds)))),
    );
  }
  return refusal;
}
