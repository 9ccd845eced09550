import { migratedDataDir } from './databases.ts';
import { freePort } from './free-port.ts';
import { withKey } from './keys.ts';
import { waitFor } from './wait-for.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The scale kit: real `airkey serve` processes (not `inject`), driven over HTTP and the CLI, so
 * what crosses instances really crosses PostgreSQL.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ADMIN = { email: 'admin@scale.test', password: 'a-long-test-password' };

export type Instance = {
  name: string;
  pid: number;
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * Environment for a server or CLI process on `databaseUrl`; nothing inherited can point elsewhere.
 * Without one, the embedded stores start migrated (a test of the first start names its own DATA_DIR).
 */
export function airkeyEnv(databaseUrl: string | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: extra.DATA_DIR ?? (databaseUrl ? mkdtempSync(join(tmpdir(), 'airkey-scale-')) : migratedDataDir()),
    AIRKEY_ADMIN_EMAIL: ADMIN.email,
    AIRKEY_ADMIN_PASSWORD: ADMIN.password,
    AIRKEY_DEMO: '0',
    // Tests name their client in X-Forwarded-For, trusted from the loopback peer they connect from,
    // so one test's failed attempts never throttle another's.
    TRUSTED_PROXIES: '127.0.0.1',
    ...extra,
  };
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  if (extra.REDIS_URL) env.REDIS_URL = extra.REDIS_URL;
  return env;
}

/**
 * Spawns `node bin/airkey <args>` as a long-running process; resolves once /readyz says 200.
 * `entry` may name another script (test/support/serve-on-clock.ts: `airkey serve` on a chosen clock).
 */
export async function startInstance(
  name: string,
  databaseUrl: string | undefined,
  extra: Record<string, string> = {},
  args = ['serve'],
  entry = 'bin/airkey',
): Promise<Instance> {
  const port = extra.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: ROOT,
    env: airkeyEnv(databaseUrl, { ...extra, PORT: port }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const instance: Instance = {
    name,
    pid: child.pid!,
    url,
    child,
    output: () => printed,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  await waitFor(
    async () => {
      if (child.exitCode !== null)
        throw new Error(`${name} exited (${child.exitCode}) before it was ready:\n${printed}`);
      return (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 60_000, what: `${name} ready` },
  );
  return instance;
}

/** A beforeAll that waits for its turn may wait for another scale file to finish: minutes. */
export const TURN_TIMEOUT_MS = 600_000;

// Any number; the same on every scale file.
const SCALE_LOCK_ID = 727_100;

/**
 * Scale files take turns: each spawns several servers, and on a two-core machine one file's
 * start-up (transpiling, argon2 hashing) would otherwise show up in the other's latency figures.
 * Holds a PostgreSQL advisory lock on the test server until the returned release is called.
 */
export async function takeTurn(): Promise<() => Promise<void>> {
  const holder = new pg.Client({ connectionString: inject('postgresUrl') });
  await holder.connect();
  await holder.query('select pg_advisory_lock($1)', [SCALE_LOCK_ID]);
  return async () => {
    await holder.query('select pg_advisory_unlock($1)', [SCALE_LOCK_ID]).catch(() => {});
    await holder.end();
  };
}

export type CliRun = {
  /** performance.now() when the CLI printed its result, i.e. after its transaction committed. */
  printed: Promise<number>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
};

/** Runs `node bin/airkey <args>` once. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): CliRun {
  const child = spawn(process.execPath, ['bin/airkey', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const printed = new Promise<number>((resolve, reject) => {
    child.stdout.once('data', () => resolve(performance.now()));
    child.once('exit', (code) =>
      reject(new Error(`airkey ${args.join(' ')} printed nothing (exit ${code}): ${stderr}`)),
    );
  });
  printed.catch(() => {});
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { printed, done };
}

/** Runs the CLI and fails the test unless it exits 0. */
export async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runCli(args, env).done;
  if (result.code !== 0) throw new Error(`airkey ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** A response and its parsed JSON body, typed by the caller (the body is not validated). */
export type Reply<T = unknown> = { status: number; body: T };

/** A back-office session; the cookie lives in the shared database, so it works on any instance. */
export type Session = {
  userId: string;
  tenantId: string;
  request<T = unknown>(
    on: Instance,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<Reply<T>>;
  /** The same request, resolved as soon as the response head arrives (the body still unread). */
  send(on: Instance, method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<Response>;
};

export async function signIn(on: Instance, email: string, password = ADMIN.password): Promise<Session> {
  const response = await fetch(`${on.url}/backoffice/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in on ${on.name}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { csrf_token: string; user: { id: string; tenant: { id: string } } };
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('airkey_session='))!
    .split(';')[0]!;
  const send = (target: Instance, method: string, path: string, payload?: unknown) => {
    const headers: Record<string, string> = { cookie };
    if (method !== 'GET') headers['x-csrf-token'] = body.csrf_token;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${target.url}${path}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
  };
  return {
    userId: body.user.id,
    tenantId: body.user.tenant.id,
    async request(target, method, path, payload) {
      const reply = await send(target, method, path, payload);
      const text = await reply.text();
      return { status: reply.status, body: (text ? JSON.parse(text) : undefined) as never };
    },
    send,
  };
}

/** The body of a key creation: the only time the secret is shown. */
export type CreatedKey = { secret: string; api_key: { id: string } };

export async function createKey(
  session: Session,
  on: Instance,
  name = 'scale key',
): Promise<{ id: string; secret: string }> {
  const reply = await session.request<CreatedKey>(on, 'POST', '/backoffice/api/api-keys', { name });
  if (reply.status !== 201) throw new Error(`create key on ${on.name}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.api_key.id, secret: reply.body.secret };
}

let clients = 0;
/** A client address of its own (sent as X-Forwarded-For): failed attempts are throttled per client. */
export function clientAddress(): string {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

/** A public-API request with `key`; returns the status code. */
export async function apiStatus(on: Instance, key: string, path: string, client = clientAddress()): Promise<number> {
  const request = withKey(key, `${on.url}${path}`, 'header', { 'x-forwarded-for': client });
  const response = await fetch(request.url, { headers: request.headers });
  await response.arrayBuffer();
  return response.status;
}

export { freePort, waitFor };
