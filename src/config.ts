import { resolve } from 'node:path';
import { canonicalIpEntry } from './shared/ip-entries.ts';
import { isValidEmail, PASSWORD_MAX, PASSWORD_MIN } from './shared/text-rules.ts';

/** Everything airkey reads from the environment (docs/configuration.md), parsed once. */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  logLevel: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  demo: boolean;
  maxKeysPerTenant: number;
  /**
   * TRUSTED_PROXIES: the peers (addresses or ranges, canonical) whose X-Forwarded-For names the
   * client (docs/keys.md (IP allowlists)); empty: X-Forwarded-For is ignored.
   */
  trustedProxies: string[];
  keyCacheMaxEntries: number;
  keyCacheMaxAgeMs: number;
  usageFlushMs: number;
  /** Days the request log keeps (REQUEST_LOG_DAYS); 0 turns the log off (docs/request-log.md). */
  requestLogDays: number;
  /** Records the request log holds while the database is slow or down (REQUEST_LOG_BUFFER); past it, dropped and counted. */
  requestLogBuffer: number;
  /** Pages of flights kept in memory on PGlite (FLIGHT_PAGE_CACHE_PAGES; 0 turns the cache off). */
  flightPageCachePages: number;
  /** Where clients reach this server (PUBLIC_URL): the OpenAPI `servers` entry and an allowed MCP origin. */
  publicUrl: string;
  /**
   * PUBLIC_URL's origin when it was set: the passkeys' relying party and the only origin sign-in
   * ceremonies accept. Unset: each request's own origin (docs/sign-in.md (Passkeys)).
   */
  publicOrigin: string | undefined;
  /** Sensitive back-office actions need a sign-in or re-authentication this recent (REAUTH_MINUTES). */
  reauthMinutes: number;
  /** A back-office session ends after this long without a request (SESSION_IDLE_MINUTES)... */
  sessionIdleMinutes: number;
  /** ...and this long after sign-in, whatever happens (SESSION_MAX_HOURS). */
  sessionMaxHours: number;
  /** Browser origins, besides the server's own, that may call /mcp (MCP_ALLOWED_ORIGINS, comma-separated). */
  mcpAllowedOrigins: string[];
  /**
   * The longest a revoking write waits for the other instances to confirm (docs/keys.md (Revocation)). An instance
   * that cannot confirm has stopped serving from its cache by then: its lease is shorter.
   */
  revocationWaitMs: number;
  /** How often expiry events are looked for (SWEEP_INTERVAL_MS). */
  sweepIntervalMs: number;
  /** WEBHOOK_ALLOW_PRIVATE=1: webhook URLs may use http: and loopback or private addresses. */
  webhookAllowPrivate: boolean;
  /**
   * SSO_ALLOW_PRIVATE=1: an identity provider may sit at a loopback or private address and be
   * reached over http: (a provider inside the network, development, tests). Off, a tenant's
   * administrator cannot make the server probe its own network.
   */
  ssoAllowPrivate: boolean;
  /** OAUTH_GRANT_DAYS: an OAuth grant ends this many days after its last use (docs/oauth.md). */
  oauthGrantDays: number;
  /** OAUTH_ALLOW_PRIVATE=1: a client's metadata document may sit at a loopback or private address. */
  oauthAllowPrivate: boolean;
  webhookTimeoutMs: number;
  /** The waits before each retry of a delivery, in milliseconds (WEBHOOK_RETRY_SCHEDULE). */
  webhookRetryScheduleMs: number[];
  /** AIRKEY_SECRET_KEY: base64 of the 32-byte key webhook secrets are sealed with (docs/webhooks.md). */
  secretKey: string | undefined;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // The first-start administrator must be able to sign in: the same rules as any user.
  if (env.AIRKEY_ADMIN_EMAIL && !isValidEmail(env.AIRKEY_ADMIN_EMAIL.trim().toLowerCase())) {
    throw new ConfigError(`AIRKEY_ADMIN_EMAIL must be an e-mail address, not "${env.AIRKEY_ADMIN_EMAIL}".`);
  }
  // The length here; the common-password and e-mail rules at first start, where the list is loaded.
  const password = env.AIRKEY_ADMIN_PASSWORD;
  if (password && ([...password].length < PASSWORD_MIN || [...password].length > PASSWORD_MAX)) {
    throw new ConfigError(`AIRKEY_ADMIN_PASSWORD must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters.`);
  }
  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: postgresUrl(env.DATABASE_URL),
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    adminEmail: env.AIRKEY_ADMIN_EMAIL || undefined,
    adminPassword: env.AIRKEY_ADMIN_PASSWORD || undefined,
    demo: env.AIRKEY_DEMO !== '0',
    maxKeysPerTenant: integer(env, 'MAX_KEYS_PER_TENANT', 1000, 1, 1_000_000),
    trustedProxies: trustedProxies(env),
    keyCacheMaxEntries: integer(env, 'KEY_CACHE_MAX_ENTRIES', 10_000, 1, 10_000_000),
    keyCacheMaxAgeMs: integer(env, 'KEY_CACHE_MAX_AGE_MS', 60_000, 0, 3_600_000),
    usageFlushMs: integer(env, 'USAGE_FLUSH_MS', 5_000, 10, 600_000),
    requestLogDays: integer(env, 'REQUEST_LOG_DAYS', 30, 0, 3_650),
    requestLogBuffer: integer(env, 'REQUEST_LOG_BUFFER', 100_000, 1, 10_000_000),
    flightPageCachePages: integer(env, 'FLIGHT_PAGE_CACHE_PAGES', 1_000, 0, 100_000),
    publicUrl: publicUrl(env.PUBLIC_URL, host, port),
    publicOrigin: env.PUBLIC_URL ? new URL(publicUrl(env.PUBLIC_URL, host, port)).origin : undefined,
    reauthMinutes: integer(env, 'REAUTH_MINUTES', 10, 1, 1_440),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 30, 1, 10_080),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 12, 1, 720),
    mcpAllowedOrigins: origins(env.MCP_ALLOWED_ORIGINS),
    revocationWaitMs: integer(env, 'REVOCATION_WAIT_MS', 2_000, 200, 60_000),
    sweepIntervalMs: integer(env, 'SWEEP_INTERVAL_MS', 60_000, 10, 86_400_000),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1',
    ssoAllowPrivate: env.SSO_ALLOW_PRIVATE === '1',
    oauthGrantDays: integer(env, 'OAUTH_GRANT_DAYS', 30, 1, 3_650),
    oauthAllowPrivate: env.OAUTH_ALLOW_PRIVATE === '1',
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 10, 300_000),
    webhookRetryScheduleMs: retrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
    secretKey: sealingKey(env.AIRKEY_SECRET_KEY),
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
  }
  return value;
}

function postgresUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError('DATABASE_URL must be a postgres:// URL.');
  return raw;
}

function publicUrl(raw: string | undefined, host: string, port: number): string {
  if (!raw) return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol))
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL, not "${raw}".`);
  return raw.replace(/\/+$/, '');
}

/** Origins compare as scheme://host[:port], the form browsers send: anything else could never match. */
function origins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      if (!URL.canParse(item) || new URL(item).origin === 'null')
        throw new ConfigError(`MCP_ALLOWED_ORIGINS: "${item}" is not an origin such as https://app.example.com.`);
      return new URL(item).origin;
    });
}

/** `10.0.0.0/8, 2001:db8::1`: each item an address or a range, as an allowlist entry is written. */
function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  // A count of hops cannot say which peer may speak for a client; an old setting must not pass unnoticed.
  if (env.TRUST_PROXY_HOPS !== undefined && env.TRUST_PROXY_HOPS !== '') {
    throw new ConfigError('TRUST_PROXY_HOPS is gone: list the proxies in TRUSTED_PROXIES (addresses or CIDR ranges).');
  }
  const items = (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.map((item) => {
    const result = canonicalIpEntry(item);
    if (!result.ok) throw new ConfigError(`TRUSTED_PROXIES: ${result.problem}`);
    return result.entry;
  });
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** `5s,5m,30m`: each wait a whole number with a unit (ms, s, m, h, d); at most 20 waits of at most a day. */
export function retrySchedule(raw: string | undefined): number[] {
  const text = raw === undefined || raw.trim() === '' ? DEFAULT_RETRY_SCHEDULE : raw;
  const waits = text.split(',').map((item) => {
    const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(item.trim());
    const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2]!]! : NaN;
    if (!(ms >= 1 && ms <= 86_400_000)) {
      throw new ConfigError(
        `WEBHOOK_RETRY_SCHEDULE: "${item.trim()}" is not a wait such as 5s, 5m or 2h (from 1ms to 1d).`,
      );
    }
    return ms;
  });
  if (waits.length > 20) throw new ConfigError('WEBHOOK_RETRY_SCHEDULE holds at most 20 waits.');
  return waits;
}

function sealingKey(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || Buffer.from(trimmed, 'base64').length !== 32) {
    throw new ConfigError('AIRKEY_SECRET_KEY must be base64 of 32 bytes (openssl rand -base64 32).');
  }
  return trimmed;
}
