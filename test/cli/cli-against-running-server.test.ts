import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { signedInAs } from '../support/actors.ts';
import { storageFor, ENGINES } from '../support/databases.ts';
import { jsonOf } from '../support/use.ts';

const exec = promisify(execFile);
const ADMIN = 'cli-admin@example.test';

/** Polls until `check` holds, returning how long it took; fails after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await check()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`not within ${limitMs} ms`);
}

describe.each(ENGINES)('the CLI while a server runs on the same data (%s)', (engine) => {
  let server: RunningServer;
  let config: Config;
  let env: NodeJS.ProcessEnv;

  const cli = (...args: string[]) => exec('node', ['bin/airkey', ...args], { env, timeout: 60_000 });
  const status = async (key: string, path: string) =>
    (await fetch(server.url + path, { headers: { 'x-api-key': key } })).status;

  beforeAll(async () => {
    const storage = await storageFor(engine);
    config = {
      ...loadConfig({}),
      ...storage,
      port: 0,
      demo: false,
      adminEmail: ADMIN,
      adminPassword: 'cli-operator-passphrase',
      logLevel: 'warn',
    };
    server = await startServer(config);
    env = {
      ...process.env,
      DATA_DIR: storage.dataDir,
      LOG_LEVEL: 'warn',
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : { DATABASE_URL: '' }),
    };
  });
  afterAll(async () => server?.stop());

  // Only a System Administrator creates keys; the key then acts with whatever roles its creator has.
  async function keyOf(email: string): Promise<string> {
    const found = await server.services.accounts.users.requireByEmail(email);
    await server.services.accounts.users.update(SYSTEM_ACTOR, found.tenantId, found.id, {
      roles: ['system_administrator', 'operations'],
    });
    const user = await server.services.accounts.users.requireByEmail(email);
    const { secret } = await server.services.keys.lifecycle.create(signedInAs(user), { name: `key of ${email}` });
    expect(await status(secret, '/api/v1/flights')).toBe(200); // now cached by the server
    return secret;
  }

  it('creates a tenant and a user through the running server', async () => {
    const { stdout } = await cli('tenant', 'create', '--name', 'CLI Air', '--slug', 'cli-air', '--json');
    expect(JSON.parse(stdout)).toMatchObject({ slug: 'cli-air', authority: 'creator' });
    const user = await cli(
      'user',
      'create',
      '--tenant',
      'cli-air',
      '--email',
      'ops@cli-air.test',
      '--name',
      'Ops',
      '--role',
      'operations',
      '--password',
      'ops-password-123',
      '--json',
    );
    expect(JSON.parse(user.stdout)).toMatchObject({ email: 'ops@cli-air.test', roles: ['operations'] });
    expect(await server.services.accounts.users.requireByEmail('ops@cli-air.test')).toBeTruthy();
  });

  it("narrows a creator's key on the next request after set-roles removes flights:read", async () => {
    const key = await keyOf('ops@cli-air.test');
    await cli('user', 'set-roles', '--email', 'ops@cli-air.test', '--role', 'crew');
    // Embedded: applied in the server's own process. PostgreSQL: delivered by the change feed.
    await within(engine === 'pglite' ? 1 : 1_000, async () => (await status(key, '/api/v1/flights')) === 403);
    expect(await status(key, '/api/v1/whoami')).toBe(200);
  });

  it("disables a creator's keys on the next request after user delete", async () => {
    await cli('user', 'set-roles', '--email', 'ops@cli-air.test', '--role', 'operations');
    const key = await keyOf('ops@cli-air.test');
    await cli('user', 'delete', '--email', 'ops@cli-air.test');
    await within(engine === 'pglite' ? 1 : 1_000, async () => (await status(key, '/api/v1/whoami')) === 401);
    const body = await jsonOf<{ code: string }>(
      await fetch(`${server.url}/api/v1/whoami`, { headers: { 'x-api-key': key } }),
    );
    expect(body.code).toBe('api_key_disabled');
  });

  it('reports a bad verb input in one line and a non-zero exit', async () => {
    const failure = await cli('user', 'set-roles', '--email', 'nobody@nowhere.test', '--role', 'crew').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr.trim().split('\n')).toHaveLength(1);
    expect((failure as { stderr: string }).stderr).toMatch(/does not exist/);
  });
});
