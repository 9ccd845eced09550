import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { SQL } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { createServices, type ServiceOverrides, type ServiceRoot } from '../../src/app/services.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp, type AppOptions } from '../../src/http/app.ts';
import type { ApiKeyView } from '../../src/keys/key-schemas.ts';
import type { Role } from '../../src/shared/roles.ts';
import { storageFor, type Engine } from './databases.ts';
import { withKey, type KeyVia } from './keys.ts';
import { captureLogs } from './log-capture.ts';
import { ManualClock, START } from './manual-clock.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';

export const TEST_PASSWORD = 'a-long-test-password';

/** Session limits no test's clock reaches: idle, absolute and re-authentication windows of about 19 years. */
export const LIMITLESS_SESSIONS = { sessionIdleMinutes: 1e7, sessionMaxHours: 1.7e5, reauthMinutes: 1e7 } as const;

export type HarnessOptions = {
  engine?: Engine;
  config?: Partial<Config>;
  now?: string | Date;
  app?: AppOptions;
  /** Collaborators a test replaces (the clock is the harness's own). */
  overrides?: Omit<ServiceOverrides, 'clock'>;
};

export type Session = {
  email: string;
  userId: string;
  tenantId: string;
  cookie: string;
  csrf: string;
  /** A back-office request with this session (cookie and CSRF token set for mutations). */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
};

export type { KeyVia };

/** Options of a public-API request: the key's way in, extra headers, the client address. */
export type ApiOptions = { via?: KeyVia; headers?: Record<string, string>; client?: string };

/**
 * The shared test kit: real services on a real database (PGlite or PostgreSQL), the real HTTP app
 * through `inject`, a clock tests move by hand, and every log line captured.
 */
export async function createHarness(options: HarnessOptions = {}) {
  const storage = await storageFor(options.engine ?? 'pglite');
  const config: Config = {
    ...loadConfig({}),
    ...storage,
    logLevel: 'info',
    usageFlushMs: 60_000,
    // Tests move the clock by days and months; their sessions outlive that unless a test of the
    // session limits sets its own (test/http/sign-in).
    ...LIMITLESS_SESSIONS,
    ...options.config,
  };
  const clock = new ManualClock(new Date(options.now ?? START));
  const services = await createServices(config, { ...options.overrides, clock });
  await services.start();
  const { lines: logs, stream: logStream } = captureLogs();
  const app = await buildApp(services, { logStream, ...options.app });
  await app.ready();

  const harness = {
    config,
    services,
    app,
    clock,
    logs,

    async tenant(authority: 'creator' | 'system' = 'creator') {
      const slug = `t-${randomBytes(4).toString('hex')}`;
      return services.accounts.tenants.create(SYSTEM_ACTOR, { name: `Tenant ${slug}`, slug, authority });
    },

    async user(tenantId: string, roles: Role[], email = `${randomBytes(4).toString('hex')}@example.test`) {
      return services.accounts.users.create(SYSTEM_ACTOR, tenantId, {
        email,
        name: 'Test User',
        password: TEST_PASSWORD,
        roles,
      });
    },

    async signIn(email: string, password = TEST_PASSWORD): Promise<Session> {
      const response = await harness.signInAttempt(email, password);
      if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
      const body = response.json<{ csrf_token: string; user: { id: string; tenant: { id: string } } }>();
      const cookie = response.cookies.find((c) => c.name === 'airkey_session')!;
      const cookieHeader = `airkey_session=${cookie.value}`;
      return {
        email,
        userId: body.user.id,
        tenantId: body.user.tenant.id,
        cookie: cookieHeader,
        csrf: body.csrf_token,
        request: (method, url, payload, headers = {}) =>
          app.inject({
            method,
            url,
            headers: {
              cookie: cookieHeader,
              ...(method === 'GET' ? {} : { 'x-csrf-token': body.csrf_token }),
              ...headers,
            },
            ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
          }),
      };
    },

    /** A new tenant with a signed-in user holding `roles` (System Administrator by default). */
    async signedIn(
      roles: Role[] = ['system_administrator'],
      authority: 'creator' | 'system' = 'creator',
    ): Promise<Session> {
      const tenant = await harness.tenant(authority);
      const user = await harness.user(tenant.id, roles);
      return harness.signIn(user.email);
    },

    async createKey(
      session: Session,
      body: { name?: string; expires_at?: string | null; allowed_ips?: string[] | null } = {},
    ): Promise<{ api_key: ApiKeyView; secret: string }> {
      const response = await session.request('POST', '/backoffice/api/api-keys', { name: 'Test key', ...body });
      if (response.statusCode !== 201) throw new Error(`create key failed: ${response.statusCode} ${response.body}`);
      return response.json();
    },

    /** A public-API request carrying `key` the chosen way (header by default). */
    api(
      key: string | undefined,
      url: string,
      via: KeyVia = 'header',
      extraHeaders: Record<string, string> = {},
    ): Promise<LightMyRequestResponse> {
      return harness.apiWith(key, url, { via, headers: extraHeaders });
    },

    /** The one public-API request helper: `key` sent the chosen way, from a chosen client address. */
    apiWith(
      key: string | undefined,
      url: string,
      { via = 'header', headers = {}, client }: ApiOptions = {},
    ): Promise<LightMyRequestResponse> {
      const request = withKey(key, url, via, headers);
      return app.inject({
        method: 'GET',
        url: request.url,
        headers: request.headers,
        ...(client === undefined ? {} : { remoteAddress: client }),
      });
    },

    /** A sign-in attempt that may fail (signIn throws unless it succeeds), from a chosen client. */
    signInAttempt(
      email: string,
      password: string,
      client?: string,
      headers: Record<string, string> = {},
    ): Promise<LightMyRequestResponse> {
      return app.inject({
        method: 'POST',
        url: '/backoffice/api/session',
        payload: { email, password },
        headers,
        ...(client === undefined ? {} : { remoteAddress: client }),
      });
    },

    async close() {
      await app.close();
      await services.close();
      // A data directory this harness made is nobody else's: 80 MB each, hundreds in a run.
      if (options.config?.dataDir === undefined) rmSync(storage.dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;
export type { ServiceRoot };

/** A raw query's rows: Drizzle types `execute` over both drivers as unknown, so the caller names the row. */
export async function rowsOf<Row>(h: Harness, query: SQL): Promise<{ rows: Row[] }> {
  const result: unknown = await h.services.database.db.execute(query);
  return result as { rows: Row[] };
}

/** As rowsOf, where the request log's entries are: the database on PostgreSQL, the log's own store on PGlite. */
export async function logRowsOf<Row>(h: Harness, query: SQL): Promise<{ rows: Row[] }> {
  const result: unknown = await h.services.requestLog.entries.execute(query);
  return result as { rows: Row[] };
}
