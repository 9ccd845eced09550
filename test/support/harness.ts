import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createServices, type Services } from '../../src/app/services.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp, type AppOptions } from '../../src/http/app.ts';
import { ManualClock } from '../../src/shared/clock.ts';
import type { ApiKeyView } from '../../src/keys/key-schemas.ts';
import type { Role } from '../../src/shared/roles.ts';
import { storageFor, type Engine } from './databases.ts';

export const TEST_PASSWORD = 'a-long-test-password';

export type HarnessOptions = { engine?: Engine; config?: Partial<Config>; now?: string | Date; app?: AppOptions };

export type Session = {
  email: string;
  userId: string;
  tenantId: string;
  cookie: string;
  csrf: string;
  /** A back-office request with this session (cookie and CSRF token set for mutations). */
  request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
};

export type KeyVia = 'header' | 'bearer' | 'query';

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
    ...options.config,
  };
  const clock = new ManualClock(new Date(options.now ?? '2026-11-22T12:00:00Z'));
  const services = await createServices(config, { clock });
  await services.start();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = await buildApp(services, { logStream, ...options.app });
  await app.ready();

  const harness = {
    config,
    services,
    app: app as FastifyInstance,
    clock,
    logs,

    async tenant(authority: 'creator' | 'system' = 'creator') {
      const slug = `t-${randomBytes(4).toString('hex')}`;
      return services.tenants.create({ name: `Tenant ${slug}`, slug, authority });
    },

    async user(tenantId: string, roles: Role[], email = `${randomBytes(4).toString('hex')}@example.test`) {
      return services.users.create(tenantId, { email, name: 'Test User', password: TEST_PASSWORD, roles });
    },

    async signIn(email: string, password = TEST_PASSWORD): Promise<Session> {
      const response = await app.inject({ method: 'POST', url: '/backoffice/api/session', payload: { email, password } });
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
            headers: { cookie: cookieHeader, ...(method === 'GET' ? {} : { 'x-csrf-token': body.csrf_token }), ...headers },
            ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
          }),
      };
    },

    /** A new tenant with a signed-in user holding `roles` (System Administrator by default). */
    async signedIn(roles: Role[] = ['system_administrator'], authority: 'creator' | 'system' = 'creator'): Promise<Session> {
      const tenant = await harness.tenant(authority);
      const user = await harness.user(tenant.id, roles);
      return harness.signIn(user.email);
    },

    async createKey(session: Session, body: { name?: string; expires_at?: string | null } = {}): Promise<{ api_key: ApiKeyView; secret: string }> {
      const response = await session.request('POST', '/backoffice/api/api-keys', { name: 'Test key', ...body });
      if (response.statusCode !== 201) throw new Error(`create key failed: ${response.statusCode} ${response.body}`);
      return response.json();
    },

    /** A public-API request carrying `key` the chosen way. */
    api(key: string | undefined, url: string, via: KeyVia = 'header', extraHeaders: Record<string, string> = {}): Promise<LightMyRequestResponse> {
      const headers: Record<string, string> = { ...extraHeaders };
      let target = url;
      if (key !== undefined && via === 'header') headers['x-api-key'] = key;
      if (key !== undefined && via === 'bearer') headers.authorization = `Bearer ${key}`;
      if (key !== undefined && via === 'query') target += `${url.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(key)}`;
      return app.inject({ method: 'GET', url: target, headers });
    },

    async close() {
      await app.close();
      await services.close();
    },
  };
  return harness;
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;
export type { Services };
