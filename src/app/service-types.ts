import type { KeyFacts } from '../keys/key-facts.ts';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { Confirmation } from '../revocation/acknowledgements.ts';
import type { ChangeFeed } from '../revocation/change-feed.ts';
import type { Database, Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { FlightService } from '../flights/flight-service.ts';
import type { ExpirySweep } from '../keys/sweeps/expiry-sweep.ts';
import type { KeyCache } from '../revocation/key-cache.ts';
import type { KeyCheck } from '../keys/check/key-check.ts';
import type { KeyPolicyService } from '../keys/policy/key-policy-service.ts';
import type { AdmissionDeps } from '../admission/admit.ts';
import type { KeyService } from '../keys/lifecycle/key-service.ts';
import type { LeakService } from '../keys/lifecycle/leak-service.ts';
import type { LegacyKeys } from '../keys/format/legacy-keys.ts';
import type { RateLimitNotices } from '../limits/rate-limit-notices.ts';
import type { QuotaNotices } from '../limits/quota-notices.ts';
import type { QuotaMeter } from '../limits/quota/quota-meter.ts';
import type { RollService } from '../keys/lifecycle/roll-service.ts';
import type { UsageRecorder } from '../keys/check/usage-recorder.ts';
import type { RequestLogService } from '../request-log/request-log-service.ts';
import type { RequestLogSink } from '../request-log/request-log-sink.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { SecondFactorService } from '../second-factors/second-factor-service.ts';
import type { SessionService } from '../sessions/session-service.ts';
import type { SignInService } from '../sessions/sign-in-service.ts';
import type { SsoAdmin } from '../sso/sso-admin.ts';
import type { SsoService } from '../sso/sso-service.ts';
import type { SignInSettingsService } from '../tenants/sign-in-settings-service.ts';
import type { Clock } from '../shared/clock.ts';
import type { TenantService } from '../tenants/tenant-service.ts';
import type { UsageCounter } from '../usage/usage-counter.ts';
import type { UsageService } from '../usage/usage-service.ts';
import type { UserService } from '../users/user-service.ts';
import type { Resolver } from '../webhooks/safe-agent.ts';
import type { SecretBox } from '../webhooks/secret-box.ts';
import type { WebhookService } from '../webhooks/webhook-service.ts';
import type { OAuthServer } from '../oauth/oauth-server.ts';
import type { Readiness } from './readiness.ts';

/**
 * What the composition root hands the HTTP server, the MCP server, the admin socket and the CLI:
 * services only, one group per feature. Storage, the unit of work and the change feed stay in the
 * root (ServiceRoot), so every write goes through a service that checks its actor. A new feature
 * adds its group here and builds it in services.ts.
 */
export type Services = {
  config: Config;
  clock: Clock;
  metrics: Metrics;
  /** Whether the database answers and the change feed listens (/readyz). */
  readiness: Readiness;
  keys: KeyServices;
  /** A request's way from its credential to its route (src/admission/admit.ts): the key check, then the limits. */
  admission: AdmissionDeps;
  limits: LimitServices;
  usage: UsageServices;
  accounts: AccountServices;
  signIn: SignInServices;
  audit: AuditService;
  /** The data a key opens: a tenant's flights. */
  flights: FlightService;
  webhooks: WebhookServices;
  requestLog: RequestLogServices;
  /** The OAuth authorization server (docs/oauth.md). */
  oauth: OAuthServer;
};

/**
 * What createServices returns: the services, and what only the process that runs them (and tests
 * that look under the services) may hold: storage, the unit of work, the change feed, start and stop.
 */
export type ServiceRoot = Services & {
  database: Database;
  uow: UnitOfWork;
  changes: ChangeFeed;
  /** Starts the background jobs (the change feed first). */
  start(): Promise<void>;
  /** Stops them in reverse order, flushing what they hold, then closes Redis and the database. */
  close(): Promise<void>;
};

/** The key core (docs/keys.md): the hot-path check and what it reads, the lifecycle, the sweeps. */
export type KeyServices = {
  check: KeyCheck;
  cache: KeyCache<KeyFacts>;
  legacy: LegacyKeys;
  /** Create, update, enable, revoke and delete keys. */
  lifecycle: KeyService;
  rolls: RollService;
  policies: KeyPolicyService;
  leaks: LeakService;
  /** Runs on its own timer; a pass on demand for tests and tools. */
  expirySweep: ExpirySweep;
  /** Each key's last use, written behind. */
  lastUse: UsageRecorder;
};

/** What announces and meters a key's limits beside the admission. */
export type LimitServices = {
  rateLimitNotices: RateLimitNotices;
  quotaMeter: QuotaMeter;
  quotaNotices: QuotaNotices;
};

/** Requests per key and hour: counted in memory, written behind, reported. */
export type UsageServices = { counter: UsageCounter; reports: UsageService };

/** Tenants and their users. */
export type AccountServices = { tenants: TenantService; users: UserService };

/** The back office's door (docs/sign-in.md): sign-in, second factors, sessions, settings, SSO. */
export type SignInServices = {
  signIns: SignInService;
  sessions: SessionService;
  secondFactors: SecondFactorService;
  settings: SignInSettingsService;
  sso: SsoService;
  ssoAdmin: SsoAdmin;
};

/** The request log (docs/request-log.md): its reader, and the writer behind every API and MCP request. */
export type RequestLogServices = {
  reader: RequestLogService;
  /** Null when REQUEST_LOG_DAYS is 0: nothing is recorded. */
  writer: RequestLogSink | null;
  /**
   * Where the entries are: the database on PostgreSQL; on the embedded engine the log's own store,
   * statements only (`execute`), run by its thread. Read by the repository, and by tests.
   */
  entries: Db;
  /** The housekeeping's days (at most hourly): made ahead, dropped past retention; returns those dropped. */
  maintain(): Promise<string[]>;
};

/** Webhook endpoints, the box that seals their secrets, and what the sealing key said at start. */
export type WebhookServices = {
  endpoints: WebhookService;
  secrets: SecretBox;
  startupWarnings: readonly string[];
};

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
  /** How requests to identity providers resolve names (tests answer with chosen addresses). */
  ssoResolver?: Resolver;
  /** How fetches of OAuth client metadata documents resolve names. */
  oauthResolver?: Resolver;
};
