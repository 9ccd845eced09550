import { monotonicClock, type Clock, type MonotonicClock } from '../../shared/clock.ts';
import type { FailureThrottle } from '../../throttle/failure-throttle.ts';
import { decide, type Verdict } from './decide.ts';
import type { KeyCache } from '../../revocation/key-cache.ts';
import type { KeyRepository } from '../key-repository.ts';
import type { KeyFacts } from '../key-facts.ts';
import { hasValidChecksum } from '../format/checksum.ts';
import type { LegacyKeys } from '../format/legacy-keys.ts';
import { digestSecret, hasKeyFormat } from '../format/secret.ts';
import type { UsageRecorder } from './usage-recorder.ts';
import { answeredWithin } from '../../shared/answered-within.ts';
import type { Principal } from '../../shared/principal.ts';

// A read that hangs (a partition: no reset, no answer) is answered 503 rather than held open.
const READ_THROUGH_TIMEOUT_MS = 2_000;

/** A valid key used from an address outside its allowlist; `client` is the address as seen. */
export type AddressRefused = { ok: false; reason: 'api_key_ip_not_allowed'; client: string };

export type CheckOutcome = Verdict | AddressRefused | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Where the check leaves the principal of a key of a tenant that it refused (disabled, expired,
 * retired, or used from outside its allowlist), for the request log; the request itself in HTTP.
 * Only a refusal of a real key sets it: a string that is no key of any tenant names no one.
 */
export type RefusedKeyHolder = { refusedKey?: Principal | undefined };

export type KeyCheckMetrics = { observe(outcome: string, seconds: number): void };

export type KeyCheckOptions = {
  repository: Pick<KeyRepository, 'findFactsByDigest'>;
  cache: KeyCache<KeyFacts>;
  usage: UsageRecorder;
  throttle: FailureThrottle;
  /** A small budget of lookups for a blocked client, so its valid keys keep working. */
  lookupsWhileBlocked: FailureThrottle;
  clock: Clock;
  /** What a check's duration is measured on (default performance.now()). */
  monotonic?: MonotonicClock;
  /** Whether keys without a checksum may remain: until none do, a bad checksum is looked up. */
  legacyKeys: Pick<LegacyKeys, 'noneRemain'>;
  metrics?: KeyCheckMetrics;
};

/** Verifies a presented key on every API and MCP request. */
export class KeyCheck {
  private readonly repository: Pick<KeyRepository, 'findFactsByDigest'>;
  private readonly cache: KeyCache<KeyFacts>;
  private readonly usage: UsageRecorder;
  private readonly throttle: FailureThrottle;
  private readonly lookupsWhileBlocked: FailureThrottle;
  private readonly clock: Clock;
  private readonly monotonic: MonotonicClock;
  private readonly legacyKeys: Pick<LegacyKeys, 'noneRemain'>;
  private readonly metrics: KeyCheckMetrics | undefined;

  constructor(options: KeyCheckOptions) {
    this.repository = options.repository;
    this.cache = options.cache;
    this.usage = options.usage;
    this.throttle = options.throttle;
    this.lookupsWhileBlocked = options.lookupsWhileBlocked;
    this.clock = options.clock;
    this.monotonic = options.monotonic ?? monotonicClock;
    this.legacyKeys = options.legacyKeys;
    this.metrics = options.metrics;
  }

  /**
   * The hot path: parse, digest, cache, decide, and then the key's allowlist against `client`
   * (the request's canonical client address, also what failures are throttled by).
   * It must never write to the database (last use goes to the write-behind recorder), never use
   * a slow KDF (SHA-256 suffices for 381-bit secrets), and never log or keep the secret.
   * A known, valid key is answered synchronously (no promise, no await): that is every request
   * but the first of a key on this instance. Everything else continues in `checkSlowly`.
   */
  check(secret: string, client: string, seen?: RefusedKeyHolder): CheckOutcome | Promise<CheckOutcome> {
    const started = this.monotonic();
    const nowMs = this.clock.nowMs();
    // 1. Parse: a malformed value is rejected without hashing or a lookup; so is, once no key
    //    minted before checksums remains, a key whose checksum is wrong (works with the database down).
    const digest = this.isCandidate(secret) ? digestSecret(secret) : null;
    // 2. Cache: a known key costs one map lookup; `undefined` is a miss, `null` a known unknown.
    const facts: KeyFacts | null | undefined = digest === null ? null : this.cache.get(digest);
    // 3. Decide from the cached facts and the clock, now.
    const verdict = facts === undefined ? undefined : decide(facts, nowMs);
    if (verdict?.ok) return this.accept(verdict, facts!, client, nowMs, started, seen);
    // 4. A client this instance already knows to be blocked is refused here, without a promise
    //    or a call to the throttle's store, unless its key is one it may still look up: the bulk
    //    of a flood of guesses is answered this way.
    const blockedFor = this.throttle.knownBlockSeconds(client);
    if (blockedFor > 0 && !this.mayStillLookUp(digest, facts, client)) {
      return this.finish({ ok: false, reason: 'throttled', retryAfterSeconds: blockedFor }, started);
    }
    return this.checkSlowly(digest, facts, verdict, nowMs, client, started, seen);
  }

  /**
   * Failures and misses. A client that keeps failing is blocked: it is answered without database
   * work, except for a few lookups of well-formed keys this instance has not cached, so that its
   * valid keys keep working (docs/api.md, 429) while a flood of guesses still cannot load the database.
   * A database failure on a miss propagates as an error (503), never as "invalid key".
   */
  private async checkSlowly(
    digest: string | null,
    cached: KeyFacts | null | undefined,
    cachedVerdict: Verdict | undefined,
    nowMs: number,
    client: string,
    started: number,
    seen: RefusedKeyHolder | undefined,
  ): Promise<CheckOutcome> {
    const retryAfterSeconds = await this.throttle.retryAfter(client);
    const blocked = retryAfterSeconds > 0;
    const throttled = { ok: false, reason: 'throttled', retryAfterSeconds } as const;
    const lookUp =
      this.isLookupCandidate(digest, cached) &&
      (!blocked || this.isKnownKey(digest) || (await this.lookupsWhileBlocked.tryTake(client)));
    if (blocked && !lookUp) return this.finish(throttled, started);
    let verdict = cachedVerdict;
    // The key's facts when it exists: its refusal is then counted as the key's `rejected` usage.
    let known = cached;
    if (lookUp) {
      const epoch = this.cache.currentEpoch();
      let facts: KeyFacts | null | undefined;
      try {
        facts = await answeredWithin(this.repository.findFactsByDigest(digest), READ_THROUGH_TIMEOUT_MS);
        this.cache.fill(digest, facts, epoch);
      } catch (error) {
        // Database unreachable or silent: the facts last seen hold while the lease does (docs/keys.md (Revocation)),
        // never after. Otherwise a fault (503), never "invalid".
        facts = this.cache.lastKnown(digest);
        if (facts === undefined) throw error;
      }
      verdict = decide(facts, nowMs);
      known = facts;
      if (verdict.ok) return this.accept(verdict, facts!, client, nowMs, started, seen);
    }
    if (blocked) return this.finish(throttled, started);
    // Count the failure against the client.
    await this.throttle.recordFailure(client);
    if (known) {
      this.usage.refused(known.keyId, known.tenantId, nowMs);
      if (seen) seen.refusedKey = known.principal;
    }
    return this.finish(verdict ?? { ok: false, reason: 'api_key_invalid' }, started);
  }

  /** A well-formed key the cache has no answer for: only these are ever looked up. */
  private isLookupCandidate(digest: string | null, cached: KeyFacts | null | undefined): digest is string {
    return digest !== null && cached === undefined;
  }

  /** For a blocked client, as far as this instance knows without asking the store: the same rule `checkSlowly` applies. */
  private mayStillLookUp(digest: string | null, cached: KeyFacts | null | undefined, client: string): boolean {
    return (
      this.isLookupCandidate(digest, cached) &&
      (this.isKnownKey(digest) || this.lookupsWhileBlocked.knownBlockSeconds(client) === 0)
    );
  }

  /** A key this instance knew as real (its entry only aged out) is re-read without the blocked client's budget. */
  private isKnownKey(digest: string): boolean {
    return this.cache.knewValid(digest);
  }

  private isCandidate(secret: string): boolean {
    return hasKeyFormat(secret) && (!this.legacyKeys.noneRemain || hasValidChecksum(secret));
  }

  /**
   * A valid key, then its allowlist, before any rate limit runs (the hook applies that after this
   * returns): an address refusal spends no budget, is not the key's last use, and is not a failed
   * key check either (the key is right; a throttle is for guessing keys). It counts as `ip_refused`
   * and records the address, both in memory, written behind.
   */
  private accept(
    verdict: Verdict & { ok: true },
    facts: KeyFacts,
    client: string,
    nowMs: number,
    started: number,
    seen: RefusedKeyHolder | undefined,
  ): CheckOutcome {
    const tenantId = verdict.principal.tenant.id;
    if (facts.allowedIps !== null && !facts.allowedIps.allows(client)) {
      this.usage.addressRefused(verdict.keyId, tenantId, nowMs, client);
      if (seen) seen.refusedKey = verdict.principal;
      return this.finish({ ok: false, reason: 'api_key_ip_not_allowed', client }, started);
    }
    this.usage.accepted(verdict.keyId, tenantId, nowMs);
    return this.finish(verdict, started);
  }

  private finish(outcome: CheckOutcome, started: number): CheckOutcome {
    this.metrics?.observe(outcome.ok ? 'ok' : outcome.reason, (this.monotonic() - started) / 1000);
    return outcome;
  }
}
