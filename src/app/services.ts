import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import type { Database } from '../db/handle.ts';
import { AuditRepository } from '../audit/audit-repository.ts';
import { AuditService } from '../audit/audit-service.ts';
import type { Confirmation } from '../bus/acknowledgements.ts';
import { ChangeFeed } from '../bus/change-feed.ts';
import { FlightPageCache } from '../flights/flight-page-cache.ts';
import { FlightRepository } from '../flights/flight-repository.ts';
import { FlightService } from '../flights/flight-service.ts';
import { KeyCache } from '../keys/key-cache.ts';
import { KeyCheck, type KeyCheckMetrics } from '../keys/key-check.ts';
import { KeyRepository } from '../keys/key-repository.ts';
import { KeyService } from '../keys/key-service.ts';
import { LeakService } from '../keys/leak-service.ts';
import { LegacyKeys } from '../keys/legacy-keys.ts';
import { RollService } from '../keys/roll-service.ts';
import type { RandomBytes } from '../shared/digest.ts';
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
import { FailureThrottle } from '../throttle/failure-throttle.ts';
import { connectRedis } from '../throttle/redis-client.ts';
import { UserRepository } from '../users/user-repository.ts';
import { UserService } from '../users/user-service.ts';
import { sharedSecret } from './settings.ts';
import { loadSealingKey } from '../webhooks/sealing-key.ts';
import { DeliveryWorker } from '../webhooks/delivery-worker.ts';
import type { Resolver } from '../webhooks/safe-agent.ts';
import { ExpirySweep } from '../keys/expiry-sweep.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { WebhookRepository } from '../webhooks/webhook-repository.ts';
import { WebhookService } from '../webhooks/webhook-service.ts';

export type ServiceOverrides = {
  clock?: Clock;
  random?: RandomBytes;
  database?: Database;
  keyCheckMetrics?: KeyCheckMetrics;
  onBackgroundError?: (error: unknown) => void;
  /** A revoking write stopped waiting for an instance whose lease ran out instead (docs/keys.md (Revocation)). */
  onRevocationLapsed?: (confirmation: Confirmation) => void;
  /** Said once at start (the webhook sealing key kept in the database); a process warning by default. */
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
  const database =
    overrides.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const { db } = database;
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const cursors = new CursorCodec(await sharedSecret(db, 'cursor_secret'));
  const changes = new ChangeFeed({
    database,
    revocationWaitMs: config.revocationWaitMs,
    now: () => clock.now().getTime(),
    ...(overrides.onRevocationLapsed ? { onLapsed: overrides.onRevocationLapsed } : {}),
  });
  // Every write starts here: one transaction, its changes published on the feed and applied locally.
  // A commit that queued webhook deliveries starts the worker at once (it is built below).
  const uow = new UnitOfWork(db, changes, { onDeliveriesCommitted: () => deliveries.poke() });
  // Webhook secrets are sealed with this key; where it comes from is docs/webhooks.md (Secrets).
  const webhookSecrets = await loadSealingKey({
    secretKey: config.secretKey,
    databaseKind: database.kind,
    dataDir: config.dataDir,
    db,
    warn: overrides.onWarning ?? ((message) => process.emitWarning(message)),
  });

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

  const keyFailures = new FailureThrottle({
    points: 20,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: 'key-failures',
    redis,
  });
  // One database lookup a second, at most, for a blocked client: its valid keys keep working.
  const keyLookupsWhileBlocked = new FailureThrottle({
    points: 60,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: 'key-lookups-blocked',
    redis,
  });
  // Leak reports need no key: every report spends a point, whatever it held (see LeakService).
  const leakReports = new FailureThrottle({
    points: 20,
    windowSeconds: 60,
    blockSeconds: 60,
    keyPrefix: 'leak-reports',
    redis,
  });
  const signInFailures = new FailureThrottle({
    points: 5,
    windowSeconds: 300,
    blockSeconds: 300,
    keyPrefix: 'sign-in-failures',
    redis,
  });
  // A hundred failures in five minutes from one address, over any accounts: spraying, not typos.
  const signInSpray = new FailureThrottle({
    points: 100,
    windowSeconds: 300,
    blockSeconds: 300,
    keyPrefix: 'sign-in-spray',
    redis,
  });
  // Request counts per key and hour: incremented in memory by the key check, added up by a flush.
  const usageRepository = new UsageRepository(db);
  const usageCounter = new UsageCounter(usageRepository, config.usageFlushMs, overrides.onBackgroundError);
  const usage = new UsageRecorder(keyRepository, usageCounter, config.usageFlushMs, overrides.onBackgroundError);

  const backgroundError = overrides.onBackgroundError ?? ((error: unknown) => console.error(error));
  // Webhook deliveries: claimed from the outbox and sent off every request's path (docs/webhooks.md).
  const deliveries = new DeliveryWorker({
    db,
    secrets: webhookSecrets,
    retryScheduleMs: config.webhookRetryScheduleMs,
    timeoutMs: config.webhookTimeoutMs,
    allowPrivate: config.webhookAllowPrivate,
    onError: backgroundError,
    ...(overrides.webhookResolver ? { resolver: overrides.webhookResolver } : {}),
  });
  const keys = new KeyService(uow, keyRepository, audit, clock, {
    maxKeysPerTenant: config.maxKeysPerTenant,
    ...(overrides.random ? { random: overrides.random } : {}),
  });
  // api_key.expiring and api_key.expired, every SWEEP_INTERVAL_MS.
  const expirySweep = new ExpirySweep({
    uow,
    keys: keyRepository,
    keyService: keys,
    clock,
    intervalMs: config.sweepIntervalMs,
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
    keyCheck: new KeyCheck(
      keyRepository,
      keyCache,
      usage,
      keyFailures,
      keyLookupsWhileBlocked,
      clock,
      legacyKeys,
      keyCheckMetricsOf(metrics, overrides.keyCheckMetrics),
    ),
    uow,
    webhookSecrets,
    deliveries,
    webhooks: new WebhookService({
      uow,
      repository: new WebhookRepository(db),
      audit,
      clock,
      cursors,
      secrets: webhookSecrets,
      recordEvent,
      poke: () => deliveries.poke(),
      allowPrivate: config.webhookAllowPrivate,
    }),
    keys,
    expirySweep,
    keyRolls: new RollService(uow, keyRepository, audit, clock, overrides.random),
    leaks: new LeakService(uow, keyRepository, audit, clock, leakReports, legacyKeys),
    tenants: new TenantService(uow, tenantRepository, keyRepository, audit),
    users: new UserService(uow, userRepository, tenantRepository, keyRepository, audit),
    sessions: new SessionService(
      db,
      new SessionRepository(db),
      userRepository,
      audit,
      signInFailures,
      signInSpray,
      clock,
      overrides.random,
    ),
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
      deliveries.start();
      expirySweep.start();
    },
    async close() {
      expirySweep.stop();
      await deliveries.stop();
      await usage.stop();
      await usageCounter.stop();
      await changes.stop();
      redis?.disconnect();
      await database.close();
    },
  };
  return services;
}

export type Services = Awaited<ReturnType<typeof createServices>>;

/** The /metrics counters always; a test's own observer as well when it passes one. */
function keyCheckMetricsOf(metrics: Metrics, extra: KeyCheckMetrics | undefined): KeyCheckMetrics {
  if (!extra) return metrics.keyCheck;
  return {
    observe(outcome, seconds) {
      metrics.keyCheck.observe(outcome, seconds);
      extra.observe(outcome, seconds);
    },
  };
}
