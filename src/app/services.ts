import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { activeTracing } from '../telemetry/tracing.ts';
import { AuditRepository } from '../audit/audit-repository.ts';
import { AuditService } from '../audit/audit-service.ts';
import type { Confirmation } from '../bus/acknowledgements.ts';
import { ChangeFeed } from '../bus/change-feed.ts';
import { FlightPageCache } from '../flights/flight-page-cache.ts';
import { FlightRepository } from '../flights/flight-repository.ts';
import { FlightService } from '../flights/flight-service.ts';
import { KeyCache } from '../keys/key-cache.ts';
import { KeyCheck } from '../keys/key-check.ts';
import { KeyRepository } from '../keys/key-repository.ts';
import { KeyService } from '../keys/key-service.ts';
import { LeakService } from '../keys/leak-service.ts';
import { LegacyKeys } from '../keys/legacy-keys.ts';
import { RollService } from '../keys/roll-service.ts';
import { UsageRecorder } from '../keys/usage-recorder.ts';
import { UsageCounter } from '../usage/usage-counter.ts';
import { UsageRepository } from '../usage/usage-repository.ts';
import { UsageService } from '../usage/usage-service.ts';
import { Metrics } from '../metrics/metrics.ts';
import { UnitOfWork } from '../db/unit-of-work.ts';
import { SessionRepository } from '../sessions/session-repository.ts';
import { SessionService } from '../sessions/session-service.ts';
import { systemClock, type Clock } from '../shared/clock.ts';
import { CursorCodec } from '../shared/cursor.ts';
import { TenantRepository } from '../tenants/tenant-repository.ts';
import { TenantService } from '../tenants/tenant-service.ts';
import { connectRedis } from '../throttle/redis-client.ts';
import { UserRepository } from '../users/user-repository.ts';
import { UserService } from '../users/user-service.ts';
import { traceKeyLookups } from '../telemetry/key-lookup-span.ts';
import { sharedSecret } from '../db/shared-secrets.ts';
import { createThrottles } from './throttles.ts';
import { createKeyLimits } from './key-limits.ts';
import type { Logger } from 'pino';
import { backgroundLogger } from '../http/logging.ts';
import { FailureStreak } from '../shared/failure-streak.ts';
import { webhookDelivery } from '../webhooks/delivery-setup.ts';
import type { Resolver } from '../webhooks/safe-agent.ts';
import { ExpirySweep } from '../keys/expiry-sweep.ts';
import { KeyPolicyRepository } from '../keys/key-policy-repository.ts';
import { KeyPolicyService } from '../keys/key-policy-service.ts';
import { UnusedKeySweep } from '../keys/unused-sweep.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { WebhookRepository } from '../webhooks/webhook-repository.ts';
import { WebhookService } from '../webhooks/webhook-service.ts';

export type ServiceOverrides = {
  clock?: Clock;
  /** Where background failures are logged (the server's log stream); stdout otherwise. */
  log?: Pick<Logger, 'warn' | 'info'>;
  /** A revoking write stopped waiting for an instance whose lease ran out instead (docs/keys.md (Revocation)). */
  onRevocationLapsed?: (confirmation: Confirmation) => void;
  /** Said once at start (the webhook sealing key kept in the database); kept in `startupWarnings` by default. */
  onWarning?: (message: string) => void;
  /** How webhook deliveries resolve names (tests answer with chosen addresses). */
  webhookResolver?: Resolver;
};

/**
 * The composition root: builds every service once from config. The HTTP server, the MCP server
 * and the CLI all receive this same object.
 */
export async function createServices(config: Config, overrides: ServiceOverrides = {}) {
  const clock = overrides.clock ?? systemClock;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    observeEmbedded: activeTracing()?.traceEmbeddedQueries,
  });
  const { db } = database;
  const cursors = new CursorCodec(await sharedSecret(db, 'cursor_secret'));
  const changes = new ChangeFeed({
    database,
    revocationWaitMs: config.revocationWaitMs,
    now: () => clock.now().getTime(),
    ...(overrides.onRevocationLapsed ? { onLapsed: overrides.onRevocationLapsed } : {}),
  });
  // Every write starts here: one transaction, its changes published on the feed and applied locally.
  // A commit that queued webhook deliveries starts the worker at once (it is built below).
  const uow = new UnitOfWork(db, changes, { outbox: recordEvent, onDeliveriesCommitted: () => deliveries.poke() });
  const log = overrides.log ?? backgroundLogger({ level: config.logLevel });
  const backgroundError = (error: unknown) => log.warn({ err: error }, 'background work failed');
  // Webhook secrets and deliveries, sent off every request's path (docs/webhooks.md).
  const webhooks = await webhookDelivery(config, database, {
    onError: backgroundError,
    ...(overrides.onWarning ? { onWarning: overrides.onWarning } : {}),
    ...(overrides.webhookResolver ? { resolver: overrides.webhookResolver } : {}),
  });
  const deliveries = webhooks.worker;

  const tenantRepository = new TenantRepository(db);
  const keyRepository = new KeyRepository(db);
  const userRepository = new UserRepository(db);
  // Pages of flights kept until their tenant's next write: only where this process is the only writer.
  const flightPages =
    database.kind === 'pglite' && config.flightPageCachePages > 0
      ? new FlightPageCache(config.flightPageCachePages)
      : undefined;
  const flightRepository = new FlightRepository(db, (tenantId) => flightPages?.changed(tenantId));
  const audit = new AuditService(new AuditRepository(db), cursors);

  const keyCache = new KeyCache({ maxEntries: config.keyCacheMaxEntries, maxAgeMs: config.keyCacheMaxAgeMs });
  changes.onChange((change) => keyCache.invalidate(change));
  // Listening again: what was missed meanwhile is unknown, so the cache starts over. Whether the
  // cache may answer at all is the lease's call (docs/keys.md (Revocation)), which outlives a short listener loss.
  changes.onState((listening) => listening && keyCache.resubscribed());
  changes.onLease((validUntil) => keyCache.serveUntil(validUntil));
  // Any change may be the deletion of the last key without a checksum: ask again (until none remain).
  const legacyKeys = new LegacyKeys(keyRepository);
  changes.onChange(() => void legacyKeys.refresh());
  const metrics = new Metrics({ keyCache, changes });

  const streakOf = (task: string) => {
    metrics.backgroundFailed(task, 0);
    return new FailureStreak(task, {
      warn: (name, error) => log.warn({ err: error, task: name }, 'background task failed; retrying'),
      recovered: (name, failures) => log.info({ task: name, failures }, 'background task recovered'),
      count: (name) => metrics.backgroundFailed(name),
    });
  };
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, streakOf('redis_connection')) : undefined;
  const { keyFailures, keyLookupsWhileBlocked, leakReports, signInFailures, signInSpray } = createThrottles(redis);
  // Request counts per key and hour: incremented in memory by the key check, added up by a flush.
  const usageRepository = new UsageRepository(db);
  const usageCounter = new UsageCounter(usageRepository, config.usageFlushMs, streakOf('usage_counts'));
  const usage = new UsageRecorder(keyRepository, usageCounter, config.usageFlushMs, streakOf('key_last_used'));
  const limits = createKeyLimits({
    kind: database.kind,
    db,
    redis,
    uow,
    changes,
    clock,
    usageFlushMs: config.usageFlushMs,
    usageCounter,
    streakOf,
    backgroundError,
  });
  // The tenant's key policy: read and changed by System Administrators, enforced by the key services.
  const keyPolicies = new KeyPolicyService({
    uow,
    policies: new KeyPolicyRepository(db),
    audit,
    clock,
  });
  const keys = new KeyService({
    uow,
    keys: keyRepository,
    audit,
    clock,
    maxKeysPerTenant: config.maxKeysPerTenant,
    policy: keyPolicies,
    quotas: limits.quotas,
  });
  // api_key.expiring and api_key.expired, every SWEEP_INTERVAL_MS.
  const expirySweep = new ExpirySweep({
    uow,
    keyService: keys,
    clock,
    intervalMs: config.sweepIntervalMs,
    onError: backgroundError,
  });
  // api_key.unused, and keys past their tenant's disable_unused_after_days disabled, as often.
  const unusedSweep = new UnusedKeySweep({
    uow,
    audit,
    clock,
    intervalMs: config.sweepIntervalMs,
    usageFlushMs: config.usageFlushMs,
    onError: backgroundError,
  });
  const services = {
    config,
    clock,
    database,
    changes,
    keyCache,
    legacyKeys,
    metrics,
    usage,
    usageCounter,
    usageReports: new UsageService(usageRepository, clock),
    limiter: limits.limiter,
    rateLimitNotices: limits.rateLimitNotices,
    quotaMeter: limits.quotaMeter,
    quotaNotices: limits.quotaNotices,
    keyLimits: limits.keyLimits,
    keyCheck: new KeyCheck({
      repository: traceKeyLookups(keyRepository),
      cache: keyCache,
      usage,
      throttle: keyFailures,
      lookupsWhileBlocked: keyLookupsWhileBlocked,
      clock,
      legacyKeys,
      metrics: metrics.keyCheck,
    }),
    uow,
    webhookSecrets: webhooks.secrets,
    startupWarnings: webhooks.startupWarnings,
    deliveries,
    webhooks: new WebhookService({
      uow,
      repository: new WebhookRepository(db),
      audit,
      clock,
      cursors,
      secrets: webhooks.secrets,
      recordEvent,
      poke: () => deliveries.poke(),
      allowPrivate: config.webhookAllowPrivate,
    }),
    keys,
    expirySweep,
    keyRolls: new RollService({ uow, keys: keyRepository, audit, clock, policy: keyPolicies, quotas: limits.quotas }),
    keyPolicies,
    unusedSweep,
    leaks: new LeakService({ uow, keys: keyRepository, audit, clock, reports: leakReports, legacyKeys }),
    tenants: new TenantService({ uow, tenants: tenantRepository, keys: keyRepository, audit }),
    users: new UserService({
      uow,
      users: userRepository,
      tenants: tenantRepository,
      keys: keyRepository,
      audit,
    }),
    sessions: new SessionService({
      uow,
      sessions: new SessionRepository(db),
      users: userRepository,
      audit,
      throttle: signInFailures,
      sprayThrottle: signInSpray,
      clock,
    }),
    flights: new FlightService(flightRepository, cursors, {
      pages: flightPages,
      // The key check counted the request ok; a missing permission makes it rejected after all.
      onDenied: (principal) => usageCounter.denied(principal.key.id, principal.tenant.id, clock.now().getTime()),
    }),
    flightRepository,
    tenantRepository,
    userRepository,
    audit,
    /** Starts background work: the change feed, usage write-behind, webhook deliveries, the expiry sweep. */
    async start() {
      await changes.start();
      await legacyKeys.refresh();
      usage.start();
      usageCounter.start();
      limits.start();
      deliveries.start();
      expirySweep.start();
      unusedSweep.start();
    },
    async close() {
      expirySweep.stop();
      unusedSweep.stop();
      await deliveries.stop();
      await usage.stop();
      await usageCounter.stop();
      await limits.close();
      await changes.stop();
      redis?.disconnect();
      await database.close();
    },
  };
  return services;
}

export type Services = Awaited<ReturnType<typeof createServices>>;
