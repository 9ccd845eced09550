import type { Clock } from '../shared/clock.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import { decide, type Verdict } from './decide.ts';
import type { KeyCache } from './key-cache.ts';
import type { KeyRepository } from './key-repository.ts';
import type { KeyFacts } from './principal.ts';
import { digestSecret, hasKeyFormat } from './secret.ts';
import type { UsageRecorder } from './usage-recorder.ts';

export type CheckOutcome = Verdict | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export type KeyCheckMetrics = { observe(outcome: string, seconds: number): void };

/** Verifies a presented key on every API and MCP request. */
export class KeyCheck {
  constructor(
    private readonly repository: KeyRepository,
    private readonly cache: KeyCache,
    private readonly usage: UsageRecorder,
    private readonly throttle: FailureThrottle,
    private readonly clock: Clock,
    private readonly metrics?: KeyCheckMetrics,
  ) {}

  /**
   * The hot path: parse, digest, cache, decide.
   * It must never write to the database (last use goes to the write-behind recorder), never use
   * a slow KDF (SHA-256 suffices for 381-bit secrets), and never log or keep the secret.
   * A database failure on a cache miss propagates as an error (503), never as "invalid key".
   */
  async check(secret: string, client: string): Promise<CheckOutcome> {
    const started = performance.now();
    const nowMs = this.clock.now().getTime();
    // 1. Parse: a malformed value is rejected without hashing or a lookup.
    const digest = hasKeyFormat(secret) ? digestSecret(secret) : null;
    // 2. Cache: a known key costs one map lookup; `undefined` is a miss, `null` a known unknown.
    let facts: KeyFacts | null | undefined = digest === null ? null : this.cache.get(digest);
    let verdict = facts === undefined ? undefined : decide(facts, nowMs);
    if (verdict?.ok) return this.accept(verdict, nowMs, started);
    // 3. Failures and misses: a client that keeps failing is refused before any database work,
    //    while its valid, cached keys above keep working.
    const retryAfterSeconds = await this.throttle.retryAfter(client);
    if (retryAfterSeconds > 0) return this.finish({ ok: false, reason: 'throttled', retryAfterSeconds }, started);
    if (digest !== null && facts === undefined) {
      const epoch = this.cache.currentEpoch();
      try {
        facts = await this.repository.findFactsByDigest(digest);
        this.cache.fill(digest, facts, epoch);
      } catch (error) {
        // Database unreachable (the change feed, untrusting the cache, usually went with it): the
        // facts last seen still hold. A key never seen stays a fault (503), never "invalid".
        facts = this.cache.lastKnown(digest);
        if (facts === undefined) throw error;
      }
      verdict = decide(facts, nowMs);
      if (verdict.ok) return this.accept(verdict, nowMs, started);
    }
    // 4. Decide: count the failure against the client.
    await this.throttle.recordFailure(client);
    return this.finish(verdict ?? { ok: false, reason: 'api_key_invalid' }, started);
  }

  private accept(verdict: Verdict & { ok: true }, nowMs: number, started: number): Verdict {
    this.usage.touch(verdict.keyId, nowMs);
    return this.finish(verdict, started) as Verdict;
  }

  private finish(outcome: CheckOutcome, started: number): CheckOutcome {
    this.metrics?.observe(outcome.ok ? 'ok' : outcome.reason, (performance.now() - started) / 1000);
    return outcome;
  }
}
