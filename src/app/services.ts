import type { Config } from '../config.ts';
import { AuditRepository } from '../audit/audit-repository.ts';
import { AuditService } from '../audit/audit-service.ts';
import { openDatabase } from '../db/database.ts';
import { sharedSecret } from '../db/shared-secrets.ts';
import { UnitOfWork } from '../db/unit-of-work.ts';
import { FlightPageCache } from '../flights/flight-page-cache.ts';
import { FlightRepository } from '../flights/flight-repository.ts';
import { FlightService } from '../flights/flight-service.ts';
import { Metrics } from '../metrics/metrics.ts';
import { systemClock } from '../shared/clock.ts';
import { CursorCodec } from '../shared/cursor.ts';
import { FailureStreak } from '../shared/failure-streak.ts';
import { activeTracing } from '../telemetry/setup/tracing.ts';
import { connectRedis } from '../throttle/redis-client.ts';
import { eventOutbox } from '../webhooks/outbox.ts';
import { buildAccounts } from './account-services.ts';
import { BackgroundJobs, everyInterval } from './background-jobs.ts';
import { buildKeys } from './key-services.ts';
import { backgroundLogger } from './logger.ts';
import { buildAccessTokens, buildOAuth } from './oauth-setup.ts';
import { tokenResolver } from '../admission/token-credential.ts';
import { readinessOf } from './readiness.ts';
import { buildRequestLog } from './request-log-setup.ts';
import { openRevocation } from './revocation-setup.ts';
import type { ServiceOverrides, ServiceRoot } from './service-types.ts';
import { createThrottles } from './throttles.ts';
import { buildWebhooks, webhookDelivery } from './webhook-setup.ts';

export type { ServiceOverrides, ServiceRoot, Services } from './service-types.ts';

/** How often expired sessions, retired keys and old usage rows are cleared away. */
const HOUSEKEEPING_MS = 30_000;

/**
 * The composition root: every service built once from config, read top to bottom: what runs under
 * every feature, then each feature from what it needs, then the one list of background jobs. The
 * HTTP server, the MCP server, the admin socket and the CLI receive the services; storage, the
 * unit of work and the change feed are handed to no adapter.
 */
export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<ServiceRoot> {
  const clock = overrides.clock ?? systemClock;

  // Storage first: nothing else is opened (not even the log's stream) when it cannot be.
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    observeEmbedded: activeTracing()?.traceEmbeddedQueries,
  });
  const { db } = database;
  const cursors = new CursorCodec(await sharedSecret(db, 'cursor_secret'));

  // What watches everything: the background log and the metrics.
  const log = overrides.log ?? backgroundLogger({ level: config.logLevel });
  const reportError = (error: unknown) => log.warn({ err: error }, 'background work failed');
  const metrics = new Metrics();
  /** A background task's failures: one warning when a streak starts, a count each time, a recovery line. */
  const streakOf = (task: string) => {
    metrics.backgroundFailed(task, 0);
    return new FailureStreak(task, {
      warn: (name, error) => log.warn({ err: error, task: name }, 'background task failed; retrying'),
      recovered: (name, failures) => log.info({ task: name, failures }, 'background task recovered'),
      count: (name) => metrics.backgroundFailed(name),
    });
  };

  // The change feed, with the key cache it keeps exact.
  const { changes, keyCache } = openRevocation({
    config,
    clock,
    database,
    metrics,
    log,
    onLapsed: overrides.onRevocationLapsed,
  });

  // Webhook secrets and deliveries, sent off every request's path (docs/webhooks.md).
  const delivery = await webhookDelivery(config, database, {
    clock,
    onError: reportError,
    onWarning: overrides.onWarning,
    resolver: overrides.webhookResolver,
  });
  // Every write starts here: one transaction, its changes published on the feed and applied
  // locally, its events in the outbox. A commit that queued webhook deliveries starts the worker.
  const outbox = eventOutbox(clock);
  const uow = new UnitOfWork({ db, carrier: changes, outbox, onDeliveriesCommitted: () => delivery.worker.poke() });
  const audit = new AuditService({ repository: new AuditRepository(db), cursors });

  // Redis when configured (rate limits, quotas, failure throttles); memory or the database otherwise.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, streakOf('redis_connection')) : undefined;
  const throttles = createThrottles(redis, clock, db);

  // The features, each from what it needs.
  const key = buildKeys({
    config,
    clock,
    database,
    uow,
    changes,
    keyCache,
    redis,
    throttles,
    audit,
    metrics,
    streakOf,
    reportError,
  });
  const { accounts, signIn } = buildAccounts({
    config,
    clock,
    database,
    uow,
    audit,
    secrets: delivery.secrets,
    throttles,
    creatorKeys: key.creatorKeys,
    reportError,
    ssoResolver: overrides.ssoResolver,
  });
  // Pages of flights kept until their tenant's next write: only where this process is the only writer.
  const flightPages =
    database.kind === 'pglite' && config.flightPageCachePages > 0
      ? new FlightPageCache(config.flightPageCachePages)
      : undefined;
  const flights = new FlightService(new FlightRepository(db, (tenantId) => flightPages?.changed(tenantId)), cursors, {
    pages: flightPages,
    // The key check counted the request ok; a missing permission makes it rejected after all.
    onDenied: (principal) => key.usage.counter.denied(principal.key.id, principal.tenant.id, clock.nowMs()),
  });
  const webhooks = buildWebhooks({ config, clock, database, uow, audit, cursors, outbox, delivery });
  const requestLog = buildRequestLog({ config, clock, database, cursors, metrics, streakOf, reportError });
  const oauth = await buildOAuth(
    config,
    clock,
    db,
    audit,
    { throttles, log, uow, lastUseReport: streakOf('grant_last_used') },
    overrides.oauthResolver,
  );
  // Access tokens on /mcp and /api/v1 (docs/oauth.md): the admission's second kind of credential.
  const accessTokens = buildAccessTokens(config, clock, { database, changes, throttles }, oauth, key.usage.counter);
  const admission = {
    ...key.admission,
    credentials: { ...key.admission.credentials, oauth: tokenResolver(accessTokens, oauth.urls) },
  };

  // Everything that runs beside the server: started in this order, stopped in the reverse one (the
  // change feed last, so the flushes before it still publish). A new job is one more entry here.
  const { legacy, rolls, lastUse, expirySweep } = key.keys;
  const jobs = new BackgroundJobs([
    { name: 'change feed', start: () => changes.start(), stop: () => changes.stop() },
    { name: 'legacy keys', start: () => legacy.refresh() },
    { name: 'usage counts', start: () => key.usage.counter.start(), stop: () => key.usage.counter.stop() },
    { name: 'key last use', start: () => lastUse.start(), stop: () => lastUse.stop() },
    { name: 'grant last use', start: () => oauth.lastUse.start(), stop: () => oauth.lastUse.stop() },
    // Written on stop, before the database closes: a clean stop loses no request's entry.
    requestLog.job,
    // Also waits for the rate limits' leases under way.
    { name: 'quota use', start: () => key.limitJobs.start(), stop: () => key.limitJobs.close() },
    { name: 'webhook deliveries', start: () => delivery.worker.start(), stop: () => delivery.worker.stop() },
    { name: 'unused keys', start: () => key.unusedSweep.start(), stop: () => key.unusedSweep.stop() },
    // api_key.expiring and api_key.expired (recordExpiries), every SWEEP_INTERVAL_MS.
    { name: 'expiry', start: () => expirySweep.start(), stop: () => expirySweep.stop() },
    everyInterval(
      'housekeeping',
      HOUSEKEEPING_MS,
      {
        legacy_keys: () => legacy.refresh(),
        retired_keys: () => rolls.deleteRetired(),
        ended_sessions: () => signIn.sessions.deleteEnded(),
        abandoned_sign_ins: () => signIn.signIns.deleteExpired(),
        sso_flows: () => signIn.sso.deleteExpired(),
        usage_prune: () => key.usage.reports.prune(),
        planner_statistics: () => database.refreshStatistics(),
        request_log_partitions: () => requestLog.maintain(),
        oauth_records: () => oauth.deleteExpired(),
      },
      (task, error) => log.warn({ err: error, task }, 'housekeeping failed'),
    ),
  ]);

  return {
    config,
    clock,
    metrics,
    readiness: readinessOf(database, changes),
    keys: key.keys,
    admission,
    limits: key.limits,
    usage: key.usage,
    accounts,
    signIn,
    audit,
    flights,
    webhooks,
    requestLog: requestLog.services,
    oauth,
    database,
    uow,
    changes,
    start: () => jobs.start(),
    async close() {
      await jobs.stop();
      redis?.disconnect();
      await database.close();
    },
  };
}
