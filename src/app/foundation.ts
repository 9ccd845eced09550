import type { KeyFacts } from '../keys/key-facts.ts';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ChangeFeed } from '../revocation/change-feed.ts';
import { openDatabase } from '../db/database.ts';
import type { Database } from '../db/handle.ts';
import { sharedSecret } from '../db/shared-secrets.ts';
import { UnitOfWork } from '../db/unit-of-work.ts';
import { KeyCache } from '../revocation/key-cache.ts';
import { Metrics } from '../metrics/metrics.ts';
import type { Clock } from '../shared/clock.ts';
import { CursorCodec } from '../shared/cursor.ts';
import { FailureStreak } from '../shared/failure-streak.ts';
import { activeTracing } from '../telemetry/setup/tracing.ts';
import { connectRedis } from '../throttle/redis-client.ts';
import { eventOutbox } from '../webhooks/outbox.ts';
import { backgroundLogger } from './logger.ts';
import type { ServiceOverrides } from './service-types.ts';
import { createThrottles } from './throttles.ts';
import { webhookDelivery } from './webhook-setup.ts';

/**
 * What every feature is built on: the database, the change feed and the unit of work, the key
 * cache the feed keeps exact, the metrics, the background log, Redis and the failure throttles,
 * and the webhook delivery worker the unit of work pokes after a commit.
 */
export async function openFoundation(config: Config, clock: Clock, overrides: ServiceOverrides) {
  const database: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    observeEmbedded: activeTracing()?.traceEmbeddedQueries,
  });
  const { db } = database;
  const cursors = new CursorCodec(await sharedSecret(db, 'cursor_secret'));
  const log: Pick<Logger, 'warn' | 'info'> = overrides.log ?? backgroundLogger({ level: config.logLevel });
  const reportError = (error: unknown) => log.warn({ err: error }, 'background work failed');
  const changes = new ChangeFeed({
    database,
    revocationWaitMs: config.revocationWaitMs,
    now: () => clock.nowMs(),
    onAckFailed: (error, stage) => {
      metrics.backgroundFailed(`change_acknowledgement_${stage}`);
      log.warn({ err: error, stage }, 'a change acknowledgement failed; its writer waits for leases to run out');
    },
    ...(overrides.onRevocationLapsed ? { onLapsed: overrides.onRevocationLapsed } : {}),
  });
  // Webhook secrets and deliveries, sent off every request's path (docs/webhooks.md).
  const webhooks = await webhookDelivery(config, database, {
    clock,
    onError: reportError,
    onWarning: overrides.onWarning,
    resolver: overrides.webhookResolver,
  });
  // Every write starts here: one transaction, its changes published on the feed and applied locally.
  // A commit that queued webhook deliveries starts the worker at once.
  const outbox = eventOutbox(clock);
  const uow = new UnitOfWork({
    db,
    carrier: changes,
    outbox,
    onDeliveriesCommitted: () => webhooks.worker.poke(),
  });

  const keyCache = new KeyCache<KeyFacts>({ maxEntries: config.keyCacheMaxEntries, maxAgeMs: config.keyCacheMaxAgeMs });
  changes.onChange((change) => keyCache.invalidate(change));
  // Listening again: what was missed meanwhile is unknown, so the cache starts over. Whether the
  // cache may answer at all is the lease's call (docs/keys.md (Revocation)), which outlives a short listener loss.
  changes.onState((listening) => listening && keyCache.resubscribed());
  changes.onLease((validUntil) => keyCache.serveUntil(validUntil));
  const metrics = new Metrics({ keyCache, changes });
  for (const stage of ['send', 'listen']) metrics.backgroundFailed(`change_acknowledgement_${stage}`, 0);

  /** A background task's failures: one warning when a streak starts, a count each time, a recovery line. */
  const streakOf = (task: string) => {
    metrics.backgroundFailed(task, 0);
    return new FailureStreak(task, {
      warn: (name, error) => log.warn({ err: error, task: name }, 'background task failed; retrying'),
      recovered: (name, failures) => log.info({ task: name, failures }, 'background task recovered'),
      count: (name) => metrics.backgroundFailed(name),
    });
  };
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, streakOf('redis_connection')) : undefined;
  return {
    database,
    cursors,
    changes,
    uow,
    outbox,
    keyCache,
    metrics,
    log,
    reportError,
    streakOf,
    redis,
    throttles: createThrottles(redis, clock, db),
    webhooks,
  };
}

export type Foundation = Awaited<ReturnType<typeof openFoundation>>;
