import type { KeyFacts } from '../keys/key-facts.ts';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { Confirmation } from '../revocation/acknowledgements.ts';
import type { ChangeFeed } from '../revocation/change-feed.ts';
import type { Database } from '../db/handle.ts';
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

/**
 * What the composition root hands the HTTP server, the MCP server and the CLI, in groups. Services
 * only: repositories stay inside the root, so every write goes through a service that checks its
 * actor. A new feature adds its group here, builds it in services.ts and, if it runs beside the
 * server, adds one entry to the background jobs there.
 */
export type Services = FoundationServices &
  KeyServices &
  AccountServices &
  FlightServices &
  WebhookServices &
  RequestLogServices & {
    /** The OAuth authorization server (docs/oauth.md). */
    oauth: OAuthServer;
    /** Starts the background jobs (the change feed first). */
    start(): Promise<void>;
    /** Stops them in reverse order, flushing what they hold, then closes Redis and the database. */
    close(): Promise<void>;
  };

/** Storage, the change feed and the unit of work every write starts in; the metrics that watch them. */
export type FoundationServices = {
  config: Config;
  clock: Clock;
  database: Database;
  changes: ChangeFeed;
  uow: UnitOfWork;
  metrics: Metrics;
};

/** The key core (docs/keys.md): the hot-path check and what it reads, the lifecycle, usage. */
export type KeyServices = {
  keyCheck: KeyCheck;
  keyCache: KeyCache<KeyFacts>;
  legacyKeys: LegacyKeys;
  /** A request's way from its credential to its route (src/admission/admit.ts): the key check, then the limits. */
  admission: AdmissionDeps;
  rateLimitNotices: RateLimitNotices;
  quotaMeter: QuotaMeter;
  quotaNotices: QuotaNotices;
  keys: KeyService;
  keyRolls: RollService;
  keyPolicies: KeyPolicyService;
  leaks: LeakService;
  /** Runs on its own timer; a pass on demand for tests and tools. */
  expirySweep: ExpirySweep;
  usage: UsageRecorder;
  usageCounter: UsageCounter;
  usageReports: UsageService;
};

/** Tenants, their users, the back office's door (sign-in, second factors, sessions) and the audit trail. */
export type AccountServices = {
  tenants: TenantService;
  users: UserService;
  sessions: SessionService;
  signIns: SignInService;
  secondFactors: SecondFactorService;
  signInSettings: SignInSettingsService;
  sso: SsoService;
  ssoAdmin: SsoAdmin;
  audit: AuditService;
};

/** The data a key opens: a tenant's flights. */
export type FlightServices = { flights: FlightService };

/** The request log (docs/request-log.md): the writer behind every API and MCP request, and its reader. */
export type RequestLogServices = {
  requestLog: RequestLogService;
  /** Null when REQUEST_LOG_DAYS is 0: nothing is recorded. */
  requestLogWriter: RequestLogSink | null;
};

/** Webhook endpoints, the box that seals their secrets, and what the sealing key said at start. */
export type WebhookServices = {
  webhooks: WebhookService;
  webhookSecrets: SecretBox;
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
