import { KeyCache } from '../../src/revocation/key-cache.ts';
import { KeyCheck } from '../../src/keys/check/key-check.ts';
import type { KeyRepository } from '../../src/keys/key-repository.ts';
import type { KeyFacts } from '../../src/keys/key-facts.ts';
import { digestSecret } from '../../src/keys/format/secret.ts';
import { UsageRecorder, type RequestCounter } from '../../src/keys/check/usage-recorder.ts';
import { FailureThrottle } from '../../src/throttle/failure-throttle.ts';
import { ManualClock, START } from './manual-clock.ts';
import { FAIL_ON_ERROR } from './run-reports.ts';

/** A well-formed secret (ask_ + 64 characters of the key alphabet), distinct per `n`. */
export function secretNo(n: number, fill = 'k'): string {
  return `ask_${String(n).padStart(64, fill)}`;
}

/**
 * A stand-in for the key table, for unit tests of the check logic (not of storage): facts by
 * secret, a count of lookups, and a switch that makes every read fail as an outage would.
 */
export class FakeKeyRepository {
  readonly facts = new Map<string, KeyFacts>();
  lookups = 0;
  down = false;
  readonly usageWrites: Array<Map<string, number>> = [];
  failUsageWrites = false;

  hold(secret: string, facts: KeyFacts): void {
    this.facts.set(digestSecret(secret), facts);
  }

  findFactsByDigest(digest: string): Promise<KeyFacts | null> {
    this.lookups++;
    if (this.down) return Promise.reject(new Error('connection terminated'));
    return Promise.resolve(this.facts.get(digest) ?? null);
  }

  recordRefusals(): Promise<void> {
    return Promise.resolve();
  }

  recordUsage(batch: ReadonlyMap<string, number>): Promise<void> {
    if (this.failUsageWrites) return Promise.reject(new Error('connection terminated'));
    this.usageWrites.push(new Map(batch));
    return Promise.resolve();
  }

  asRepository(): KeyRepository {
    return this as unknown as KeyRepository;
  }
}

/** Request counts are src/usage's concern, tested there; these tests count nothing. */
export const NO_COUNTS: RequestCounter = { ok() {}, rejected() {}, ipRefused() {} };

export type KeyCheckLimits = { failures: number; lookupsWhileBlocked: number; cacheMaxAgeMs?: number };

/** A KeyCheck with the real cache, usage recorder and throttles around a fake repository. */
export function keyCheckKit(limits: KeyCheckLimits = { failures: 20, lookupsWhileBlocked: 60 }) {
  const repository = new FakeKeyRepository();
  const cache = new KeyCache<KeyFacts>({ maxEntries: 1_000, maxAgeMs: limits.cacheMaxAgeMs ?? 60_000 });
  const usage = new UsageRecorder(repository.asRepository(), NO_COUNTS, 60_000, FAIL_ON_ERROR);
  const failures = new FailureThrottle({
    points: limits.failures,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: `unit-failures-${Math.random()}`,
  });
  const lookups = new FailureThrottle({
    points: limits.lookupsWhileBlocked,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: `unit-lookups-${Math.random()}`,
  });
  const clock = new ManualClock(START);
  const check = new KeyCheck({
    repository: repository.asRepository(),
    cache,
    usage,
    throttle: failures,
    lookupsWhileBlocked: lookups,
    clock,
    legacyKeys: { noneRemain: false },
  });
  return {
    repository,
    cache,
    usage,
    clock,
    keyCheck: check,
    check: (secret: string, client: string) => Promise.resolve(check.check(secret, client)),
  };
}
