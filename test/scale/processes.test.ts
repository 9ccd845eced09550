import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { freezingProxy } from './freezing-proxy.ts';
import {
  ADMIN,
  airkeyEnv,
  apiStatus,
  createKey,
  runCli,
  signIn,
  startInstance,
  takeTurn,
  TURN_TIMEOUT_MS,
  waitFor,
  type Instance,
} from './instances.ts';

const WHOAMI = '/api/v1/whoami';

async function listenerPids(sql: pg.Client): Promise<number[]> {
  const rows = await sql.query<{ name: string }>(
    "select application_name as name from pg_stat_activity where application_name like 'airkey-listener-%' and datname = current_database()",
  );
  return rows.rows.map((row) => Number(row.name.slice('airkey-listener-'.length))).sort();
}

describe('an airkey process', () => {
  const started: Instance[] = [];
  const clients: pg.Client[] = [];
  let release: () => Promise<void>;
  beforeAll(async () => {
    release = await takeTurn();
  }, TURN_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(started.map((instance) => instance.stop('SIGKILL')));
    await Promise.all(clients.map((client) => client.end()));
    await release?.();
  });

  async function database(): Promise<{ url: string; sql: pg.Client }> {
    const url = await freshPostgresUrl();
    const sql = new pg.Client({ connectionString: url });
    await sql.connect();
    clients.push(sql);
    return { url, sql };
  }

  it('on SIGTERM finishes the request in flight, flushes last-use timestamps, closes its listener and exits 0', async () => {
    const { url, sql } = await database();
    const server = await startInstance('S', url, { USAGE_FLUSH_MS: '600000' });
    started.push(server);
    const { id, secret } = await createKey(await signIn(server, ADMIN.email), server);
    expect(await apiStatus(server, secret, WHOAMI)).toBe(200);
    expect((await sql.query('select last_used_at from api_keys where id = $1', [id])).rows[0].last_used_at).toBeNull();
    expect(await listenerPids(sql)).toEqual([server.pid]);

    // A sign-in whose body is still arriving when the signal comes.
    const body = JSON.stringify({ email: ADMIN.email, password: ADMIN.password });
    const { port } = new URL(server.url);
    const inFlight = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/backoffice/api/session',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<number>((resolve, reject) => {
      inFlight.once('response', (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode!));
      });
      inFlight.once('error', reject);
    });
    // Signalled only once the connection is up and the first bytes have left this process.
    await new Promise<void>((resolve, reject) =>
      inFlight.write(body.slice(0, 10), (error) => (error ? reject(error) : resolve())),
    );
    server.child.kill('SIGTERM');
    await sleep(300);
    expect(server.child.exitCode).toBeNull(); // still draining
    inFlight.end(body.slice(10));
    expect(await answered).toBe(200);
    const answeredAt = performance.now();

    // The client keeps its connection open; the server must not wait for that.
    expect(await server.exited).toBe(0);
    expect(performance.now() - answeredAt).toBeLessThan(2_000);
    expect(
      (await sql.query('select last_used_at from api_keys where id = $1', [id])).rows[0].last_used_at,
    ).toBeInstanceOf(Date);
    expect(await listenerPids(sql)).toEqual([]);
  });

  it('serve --workers 2 runs two listening workers on PostgreSQL that share one port and stop together', async () => {
    const { url, sql } = await database();
    const cluster = await startInstance('W', url, {}, ['serve', '--workers', '2']);
    started.push(cluster);
    await waitFor(async () => (await listenerPids(sql)).length === 2, {
      timeoutMs: 20_000,
      what: 'both workers to listen',
    });
    const workers = await listenerPids(sql);
    expect(workers).not.toContain(cluster.pid);

    const admin = await signIn(cluster, ADMIN.email);
    const { id, secret } = await createKey(admin, cluster);
    // Connections are spread over both workers; every one of them accepts the key, then rejects it.
    const statuses = await Promise.all(Array.from({ length: 20 }, () => apiStatus(cluster, secret, WHOAMI)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect((await admin.request(cluster, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: false })).status).toBe(
      200,
    );
    // The other worker hears of it through PostgreSQL: wait for that, with a deadline, not a guess.
    const everyConnectionRejects = async () =>
      (await Promise.all(Array.from({ length: 20 }, () => apiStatus(cluster, secret, WHOAMI)))).every(
        (status) => status === 401,
      );
    await waitFor(everyConnectionRejects, { timeoutMs: 1_000, what: 'both workers to reject the key' });
    const after = await Promise.all(Array.from({ length: 20 }, () => apiStatus(cluster, secret, WHOAMI)));
    expect(new Set(after)).toEqual(new Set([401]));

    expect(await cluster.stop('SIGTERM')).toBe(0);
    expect(await listenerPids(sql)).toEqual([]);
  });

  it('stops answering from its cache before a writer answers when its listener goes silent without a reset', async () => {
    const { url } = await database();
    const proxy = await freezingProxy(url);
    onTestFinished(() => proxy.close());
    const [writer, deaf] = await Promise.all([startInstance('A', url), startInstance('D', proxy.url)]);
    started.push(writer, deaf);
    const admin = await signIn(writer, ADMIN.email);
    const { id, secret } = await createKey(admin, writer);
    expect(await apiStatus(deaf, secret, WHOAMI)).toBe(200); // cached on D

    proxy.freezeListeners();
    const sent = performance.now();
    // D never hears of it and cannot acknowledge: A waits until D's lease has run out (docs/keys.md (Revocation)).
    expect((await admin.request(writer, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: false })).status).toBe(
      200,
    );
    const waitedMs = performance.now() - sent;
    expect(await apiStatus(deaf, secret, WHOAMI)).toBe(401);
    console.log(
      `silent listener loss: A's disable answered in ${Math.round(waitedMs)} ms; D refused the key from then on`,
    );
    expect(waitedMs).toBeLessThan(2_250);
    await waitFor(async () => (await fetch(`${deaf.url}/readyz`)).status === 200, {
      timeoutMs: 10_000,
      what: 'D to listen again',
    });
    expect(await apiStatus(deaf, secret, WHOAMI)).toBe(401);
  });

  it('refuses serve --workers 2 on the embedded database with a clear reason', async () => {
    const result = await runCli(['serve', '--workers', '2'], airkeyEnv(undefined)).done;
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^airkey: .*PostgreSQL.*DATABASE_URL/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
