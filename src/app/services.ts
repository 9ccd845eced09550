import type { Config } from '../config.ts';
import { AuditRepository } from '../audit/audit-repository.ts';
import { AuditService } from '../audit/audit-service.ts';
import { FlightPageCache } from '../flights/flight-page-cache.ts';
import { FlightRepository } from '../flights/flight-repository.ts';
import { FlightService } from '../flights/flight-service.ts';
import { systemClock } from '../shared/clock.ts';
import { WebhookRepository } from '../webhooks/webhook-repository.ts';
import { WebhookService } from '../webhooks/webhook-service.ts';
import { buildAccountServices } from './account-services.ts';
import { BackgroundJobs, everyInterval } from './background-jobs.ts';
import { openFoundation } from './foundation.ts';
import { buildKeyServices } from './key-services.ts';
import type { AdmissionDeps } from '../admission/admit.ts';
import { tokenResolver } from '../admission/token-credential.ts';
import { buildRequestLog } from './request-log-setup.ts';
import { buildAccessTokens, buildOAuth } from './oauth-setup.ts';
import type { AccountServices, ServiceOverrides, Services, WebhookServices } from './service-types.ts';

export type { ServiceOverrides, Services } from './service-types.ts';

/** How often expired sessions, retired keys and old usage rows are cleared away. */
const HOUSEKEEPING_MS = 30_000;

/**
 * The composition root: builds every service once from config. The HTTP server, the MCP server
 * and the CLI all receive this same object. In order: the foundation (database, change feed, unit
 * of work), the key core, accounts, flights, webhooks; then the one list of background jobs.
 */
export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const clock = overrides.clock ?? systemClock;
  const base = await openFoundation(config, clock, overrides);
  const { database, cursors, changes, uow, metrics, log } = base;
  const { db } = database;
  const audit = new AuditService({ repository: new AuditRepository(db), cursors });
  const key = buildKeyServices(config, clock, base, audit);
  const { keyRolls, legacyKeys, usage, usageCounter, usageReports, expirySweep } = key.services;

  const accounts: AccountServices = buildAccountServices(
    config,
    clock,
    base,
    audit,
    key.creatorKeys,
    overrides.ssoResolver,
  );

  // Pages of flights kept until their tenant's next write: only where this process is the only writer.
  const flightPages =
    database.kind === 'pglite' && config.flightPageCachePages > 0
      ? new FlightPageCache(config.flightPageCachePages)
      : undefined;
  const flights = new FlightService(new FlightRepository(db, (tenantId) => flightPages?.changed(tenantId)), cursors, {
    pages: flightPages,
    // The key check counted the request ok; a missing permission makes it rejected after all.
    onDenied: (principal) => usageCounter.denied(principal.key.id, principal.tenant.id, clock.nowMs()),
  });

  const deliveries = base.webhooks.worker;
  const webhooks: WebhookServices = {
    webhooks: new WebhookService({
      uow,
      repository: new WebhookRepository(db),
      audit,
      clock,
      cursors,
      secrets: base.webhooks.secrets,
      recordEvent: base.outbox,
      poke: () => deliveries.poke(),
      allowPrivate: config.webhookAllowPrivate,
    }),
    webhookSecrets: base.webhooks.secrets,
    startupWarnings: base.webhooks.startupWarnings,
  };

  const requestLog = buildRequestLog(config, clock, base);
  const oauth = await buildOAuth(config, clock, db, audit, base, overrides.oauthResolver);
  const accessTokens = buildAccessTokens(config, clock, base, oauth, usageCounter);
  // The credential step's resolvers, one per kind of credential, then a key's limits (src/admission).
  const admission: AdmissionDeps = {
    credentials: { key: key.keyCredentials, oauth: tokenResolver(accessTokens, oauth.urls) },
    limits: key.limits.keyLimits,
  };

  // Everything that runs beside the server: started in this order, stopped in the reverse one (the
  // change feed last, so the flushes before it still publish). A new job is one more entry here.
  const jobs = new BackgroundJobs([
    { name: 'change feed', start: () => changes.start(), stop: () => changes.stop() },
    { name: 'legacy keys', start: () => legacyKeys.refresh() },
    { name: 'usage counts', start: () => usageCounter.start(), stop: () => usageCounter.stop() },
    { name: 'key last use', start: () => usage.start(), stop: () => usage.stop() },
    // Written on stop, before the database closes: a clean stop loses no request's entry.
    requestLog.job,
    // Also waits for the rate limits' leases under way.
    { name: 'quota use', start: () => key.limits.start(), stop: () => key.limits.close() },
    { name: 'webhook deliveries', start: () => deliveries.start(), stop: () => deliveries.stop() },
    { name: 'unused keys', start: () => key.unusedSweep.start(), stop: () => key.unusedSweep.stop() },
    // api_key.expiring and api_key.expired (recordExpiries), every SWEEP_INTERVAL_MS.
    { name: 'expiry', start: () => expirySweep.start(), stop: () => expirySweep.stop() },
    everyInterval(
      'housekeeping',
      HOUSEKEEPING_MS,
      {
        legacy_keys: () => legacyKeys.refresh(),
        retired_keys: () => keyRolls.deleteRetired(),
        ended_sessions: () => accounts.sessions.deleteEnded(),
        abandoned_sign_ins: () => accounts.signIns.deleteExpired(),
        sso_flows: () => accounts.sso.deleteExpired(),
        usage_prune: () => usageReports.prune(),
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
    database,
    changes,
    uow,
    metrics,
    ...key.services,
    admission,
    ...accounts,
    flights,
    ...webhooks,
    ...requestLog.services,
    oauth,
    accessTokens,
    start: () => jobs.start(),
    async close() {
      await jobs.stop();
      base.redis?.disconnect();
      await database.close();
    },
  };
}
