import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { Database } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { KeyFacts } from '../keys/key-facts.ts';
import { creatorKeys } from '../keys/lifecycle/creator-keys.ts';
import { ExpirySweep } from '../keys/sweeps/expiry-sweep.ts';
import { KeyCheck } from '../keys/check/key-check.ts';
import { KeyPolicyRepository } from '../keys/policy/key-policy-repository.ts';
import { KeyPolicyService } from '../keys/policy/key-policy-service.ts';
import { KeyRepository } from '../keys/key-repository.ts';
import { KeyService } from '../keys/lifecycle/key-service.ts';
import { LeakService } from '../keys/lifecycle/leak-service.ts';
import { LegacyKeys } from '../keys/format/legacy-keys.ts';
import { RollService } from '../keys/lifecycle/roll-service.ts';
import { UnusedKeySweep } from '../keys/sweeps/unused-sweep.ts';
import { UsageRecorder } from '../keys/check/usage-recorder.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { ChangeFeed } from '../revocation/change-feed.ts';
import type { KeyCache } from '../revocation/key-cache.ts';
import type { Clock } from '../shared/clock.ts';
import type { FailureStreak } from '../shared/failure-streak.ts';
import { activeTracing } from '../telemetry/setup/tracing.ts';
import { traceKeyLookups } from '../telemetry/spans/key-lookup-span.ts';
import { UsageCounter } from '../usage/usage-counter.ts';
import { UsageRepository } from '../usage/usage-repository.ts';
import { UsageService } from '../usage/usage-service.ts';
import { createKeyLimits } from '../limits/create-key-limits.ts';
import { keyResolver, type CredentialResolvers } from '../admission/credential.ts';
import type { AdmissionDeps } from '../admission/admit.ts';
import type { KeyServices, LimitServices, UsageServices } from './service-types.ts';
import type { Throttles } from './throttles.ts';

export type KeyDeps = {
  config: Config;
  clock: Clock;
  database: Database;
  uow: UnitOfWork;
  changes: ChangeFeed;
  keyCache: KeyCache<KeyFacts>;
  redis: Redis | undefined;
  throttles: Throttles;
  audit: AuditService;
  metrics: Metrics;
  streakOf: (task: string) => FailureStreak;
  reportError: (error: unknown) => void;
};

/**
 * The key core (docs/keys.md): the hot-path check and what it reads (cache, legacy keys, rate
 * limits, quotas, usage counts), the lifecycle services, and the sweeps that announce expiry and
 * disable unused keys. Returns the service groups, and the parts the background jobs run and stop.
 */
export function buildKeys(deps: KeyDeps) {
  const { config, clock, database, uow, changes, keyCache, throttles, audit, streakOf, reportError } = deps;
  const { db } = database;
  const keyRepository = new KeyRepository(db);
  // Any change may be the deletion of the last key without a checksum: ask again (until none remain).
  const legacy = new LegacyKeys(keyRepository);
  changes.onChange(() => void legacy.refresh().catch(reportError));

  // Request counts per key and hour: incremented in memory by the key check, added up by a flush.
  const usageRepository = new UsageRepository(db);
  const counter = new UsageCounter(usageRepository, config.usageFlushMs, streakOf('usage_counts'));
  const lastUse = new UsageRecorder(keyRepository, counter, config.usageFlushMs, streakOf('key_last_used'));
  // Rate limits and quotas: budgets leased from a shared store, spent in memory.
  const limits = createKeyLimits({
    kind: database.kind,
    db,
    redis: deps.redis,
    uow,
    changes,
    clock,
    usageFlushMs: config.usageFlushMs,
    usageCounter: counter,
    streakOf,
    backgroundError: reportError,
  });

  // The tenant's key policy: read and changed by System Administrators, enforced by the key services.
  const policies = new KeyPolicyService({ uow, policies: new KeyPolicyRepository(db), audit, clock });
  const lifecycle = new KeyService({
    uow,
    keys: keyRepository,
    audit,
    clock,
    maxKeysPerTenant: config.maxKeysPerTenant,
    policy: policies,
    quotas: limits.quotas,
  });
  const sweeps = { intervalMs: config.sweepIntervalMs, onError: reportError };
  const check = new KeyCheck({
    // Untraced, the check reads the repository itself: no span, no wrapper.
    repository: activeTracing() ? traceKeyLookups(keyRepository) : keyRepository,
    cache: keyCache,
    usage: lastUse,
    throttle: throttles.keyFailures,
    lookupsWhileBlocked: throttles.keyLookupsWhileBlocked,
    clock,
    legacyKeys: legacy,
    metrics: deps.metrics.keyCheck,
  });
  const keys: KeyServices = {
    check,
    cache: keyCache,
    legacy,
    lifecycle,
    rolls: new RollService({ uow, keys: keyRepository, audit, clock, policy: policies, quotas: limits.quotas }),
    policies,
    leaks: new LeakService({
      uow,
      keys: keyRepository,
      audit,
      clock,
      reports: throttles.leakReports,
      legacyKeys: legacy,
    }),
    // api_key.expiring and api_key.expired, every SWEEP_INTERVAL_MS.
    expirySweep: new ExpirySweep({ uow, keyService: lifecycle, clock, ...sweeps }),
    lastUse,
  };
  // The credential step's resolvers (an OAuth access token joins as `oauth`), then the limits.
  // Keys' resolver and the limits; services.ts adds OAuth access tokens' once OAuth exists.
  const admission: Omit<AdmissionDeps, 'credentials'> & { credentials: Pick<CredentialResolvers, 'key'> } = {
    credentials: { key: keyResolver(check) },
    limits: limits.keyLimits,
  };
  const limitServices: LimitServices = {
    rateLimitNotices: limits.rateLimitNotices,
    quotaMeter: limits.quotaMeter,
    quotaNotices: limits.quotaNotices,
  };
  const usage: UsageServices = { counter, reports: new UsageService({ usage: usageRepository, clock }) };
  return {
    keys,
    admission,
    limits: limitServices,
    usage,
    /** For users and tenants: the keys that lose their creator, disabled in the same unit of work. */
    creatorKeys: creatorKeys(keyRepository, clock),
    // api_key.unused, and keys past their tenant's disable_unused_after_days disabled, as often.
    unusedSweep: new UnusedKeySweep({ uow, audit, clock, usageFlushMs: config.usageFlushMs, ...sweeps }),
    /** Started and stopped with the background jobs: the quota meter writes what was used behind. */
    limitJobs: { start: () => limits.start(), close: () => limits.close() },
  };
}
