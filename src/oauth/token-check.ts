import type { Accepted } from '../keys/check/decide.ts';
import type { RefusedKeyHolder } from '../keys/check/key-check.ts';
import type { RequestCounter } from '../keys/check/usage-recorder.ts';
import type { KeyCache } from '../revocation/key-cache.ts';
import { answeredWithin } from '../shared/answered-within.ts';
import type { Clock } from '../shared/clock.ts';
import { sha256Hex } from '../shared/digest.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import type { GrantLastUse } from './grant-last-use.ts';
import { tokenFactsOf, type TokenFacts } from './token-facts.ts';
import type { AccessTokenRepository } from './token-repository.ts';

// As the key check: a read that hangs is answered 503 rather than held open.
const READ_THROUGH_TIMEOUT_MS = 2_000;
// The provider's opaque tokens are 43 base64url characters; anything far from that is no token.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/** A refusal: `invalid_token`, or a client that keeps presenting bad credentials. A database fault rejects. */
export type TokenRefusal =
  { ok: false; reason: 'invalid_token' } | { ok: false; reason: 'throttled'; retryAfterSeconds: number };
export type TokenOutcome = Accepted | TokenRefusal;

export type AccessTokenCheckOptions = {
  repository: Pick<AccessTokenRepository, 'findToken' | 'findPerson'>;
  /** The app's name for a client id (the provider knows registered clients and documents alike). */
  appName(clientId: string): Promise<string>;
  cache: KeyCache<TokenFacts>;
  /** The key check's throttle: a client guessing tokens is a client guessing keys. */
  throttle: FailureThrottle;
  usage: RequestCounter;
  /** The grant's `last_used_at`, write-behind as a key's last use: an accepted request puts it in a map. */
  lastUse: Pick<GrantLastUse, 'touch'>;
  clock: Clock;
};

const INVALID: TokenRefusal = Object.freeze({ ok: false, reason: 'invalid_token' });

/**
 * The resource side of OAuth (docs/oauth.md): an access token checked as a key is. Its SHA-256
 * (the form oauth_records stores it in) finds its facts in an in-process cache kept exact by the
 * change feed; a known token is answered synchronously with no database read and no allocation.
 * A miss reads the token, its grant, its person and their roles now, once. An accepted request is
 * counted and marks its grant used, both in memory (write-behind). Refusals are
 * `invalid_token` (unknown, expired, revoked, another resource's), counted against the client like
 * failed key checks. A database fault on a miss rejects (503), never "invalid".
 */
export class AccessTokenCheck {
  private readonly options: AccessTokenCheckOptions;
  constructor(options: AccessTokenCheckOptions) {
    this.options = options;
  }

  /** `resource`: the URL the request was sent to (`{PUBLIC_URL}/mcp` or `/api/v1`), the audience it needs. */
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
    if (facts === undefined && this.options.throttle.knownBlockSeconds(client) === 0) {
      return this.lookUp(digest!, resource, nowMs, client, seen);
    }
    return this.refuse(facts ?? null, client);
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
      if (facts === undefined) throw error;
    }
    const accepted = facts && this.decide(facts, resource, nowMs, seen);
    return accepted || this.refuse(facts, client);
  }

  /** A refusal, counted against the client (a blocked client is told so). */
  private async refuse(facts: TokenFacts | null, client: string): Promise<TokenOutcome> {
    const blockedFor = await this.options.throttle.retryAfter(client);
    if (blockedFor > 0) return throttled(blockedFor);
    // A real grant's token sent to the wrong resource, or just expired, is an app's slip, not a guess.
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
    // In memory only, as for keys: no database write on the request's path.
    this.options.usage.ok(facts.keyId, facts.tenantId, nowMs);
    this.options.lastUse.touch(facts.grantId, nowMs);
    return facts.admitted;
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

function throttled(retryAfterSeconds: number): TokenRefusal {
  return { ok: false, reason: 'throttled', retryAfterSeconds };
}
