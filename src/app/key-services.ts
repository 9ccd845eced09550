import type { Config } from '../config.ts';
import type { AuditService } from '../audit/audit-service.ts';
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
import type { Clock } from '../shared/clock.ts';
import { activeTracing } from '../telemetry/setup/tracing.ts';
import { traceKeyLookups } from '../telemetry/spans/key-lookup-span.ts';
import { UsageCounter } from '../usage/usage-counter.ts';
import { UsageRepository } from '../usage/usage-repository.ts';
import { UsageService } from '../usage/usage-service.ts';
import type { Foundation } from './foundation.ts';
import { createKeyLimits } from '../limits/create-key-limits.ts';
import { keyResolver } from '../admission/credential.ts';
import type { KeyServices } from './service-types.ts';

/**
 * The key core (docs/keys.md): the hot-path check and what it reads (cache, legacy keys, rate
 * limits, quotas, usage counts), the lifecycle services, and the sweeps that announce expiry and disable
 * unused keys. Returns the services, and the parts the background jobs run and stop.
 */
export function buildKeyServices(config: Config, clock: Clock, base: Foundation, audit: AuditService) {
  const { database, uow, changes, keyCache, metrics, streakOf, reportError, throttles } = base;
  const { db } = database;
  const keyRepository = new KeyRepository(db);
  // Any change may be the deletion of the last key without a checksum: ask again (until none remain).
  const legacyKeys = new LegacyKeys(keyRepository);
  changes.onChange(() => void legacyKeys.refresh().catch(reportError));

  // Request counts per key and hour: incremented in memory by the key check, added up by a flush.
  const usageRepository = new UsageRepository(db);
  const usageCounter = new UsageCounter(usageRepository, config.usageFlushMs, streakOf('usage_counts'));
  const usage = new UsageRecorder(keyRepository, usageCounter, config.usageFlushMs, streakOf('key_last_used'));
  // Rate limits and quotas: budgets leased from a shared store, spent in memory.
  const limits = createKeyLimits({
    kind: database.kind,
    db,
    redis: base.redis,
    uow,
    changes,
    clock,
    usageFlushMs: config.usageFlushMs,
    usageCounter,
    streakOf,
    backgroundError: reportError,
  });

  // The tenant's key policy: read and changed by System Administrators, enforced by the key services.
  const keyPolicies = new KeyPolicyService({ uow, policies: new KeyPolicyRepository(db), audit, clock });
  const keys = new KeyService({
    uow,
    keys: keyRepository,
    audit,
    clock,
    maxKeysPerTenant: config.maxKeysPerTenant,
    policy: keyPolicies,
    quotas: limits.quotas,
  });
  const sweeps = { intervalMs: config.sweepIntervalMs, onError: reportError };
  const keyCheck = new KeyCheck({
    // Untraced, the check reads the repository itself: no span, no wrapper.
    repository: activeTracing() ? traceKeyLookups(keyRepository) : keyRepository,
    cache: keyCache,
    usage,
    throttle: throttles.keyFailures,
    lookupsWhileBlocked: throttles.keyLookupsWhileBlocked,
    clock,
    legacyKeys,
    metrics: metrics.keyCheck,
  });
  // The admission is completed in services.ts, once the OAuth access tokens (a later feature) exist.
  const services: Omit<KeyServices, 'admission'> = {
    keyCheck,
    keyCache,
    legacyKeys,
    rateLimitNotices: limits.rateLimitNotices,
    quotaMeter: limits.quotaMeter,
    quotaNotices: limits.quotaNotices,
    keys,
    keyRolls: new RollService({ uow, keys: keyRepository, audit, clock, policy: keyPolicies, quotas: limits.quotas }),
    keyPolicies,
    leaks: new LeakService({
      uow,
      keys: keyRepository,
      audit,
      clock,
      reports: throttles.leakReports,
      legacyKeys,
    }),
    // api_key.expiring and api_key.expired, every SWEEP_INTERVAL_MS.
    expirySweep: new ExpirySweep({ uow, keyService: keys, clock, ...sweeps }),
    usage,
    usageCounter,
    usageReports: new UsageService({ usage: usageRepository, clock }),
  };
  return {
    services,
    /** The credential step's resolver of keys; services.ts adds OAuth access tokens' and the limits. */
    keyCredentials: keyResolver(keyCheck),
    /** For users and tenants: the keys that lose their creator, disabled in the same unit of work. */
    creatorKeys: creatorKeys(keyRepository, clock),
    // api_key.unused, and keys past their tenant's disable_unused_after_days disabled, as often.
    unusedSweep: new UnusedKeySweep({ uow, audit, clock, usageFlushMs: config.usageFlushMs, ...sweeps }),
    /** Started and stopped with the background jobs: the quota meter writes what was used behind. */
    limits,
  };
}
