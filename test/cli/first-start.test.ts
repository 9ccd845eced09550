import { afterAll, describe, expect, it } from 'vitest';
import { freshDataDir } from '../support/databases.ts';
import {
  ADMIN,
  airkeyEnv,
  cli,
  clientAddress,
  createKey,
  signIn,
  startInstance,
  type Instance,
} from '../support/instances.ts';
import { jsonOf } from '../support/use.ts';

/**
 * What `airkey serve` prints on a fresh data
 * directory, AIRKEY_DEMO=0, and the CLI verbs `tenant set-authority`, `flights seed` and
 * `migrate` against a running embedded server (they go through its admin socket).
 */
describe('the first start of an embedded server', () => {
  const started: Instance[] = [];
  const start = async (name: string, extra: Record<string, string>) => {
    const instance = await startInstance(name, undefined, extra);
    started.push(instance);
    return instance;
  };
  afterAll(async () => {
    for (const instance of started) await instance.stop();
  });

  const get = async (on: Instance, key: string, path: string) => {
    const response = await fetch(`${on.url}${path}`, {
      headers: { 'x-api-key': key, 'x-forwarded-for': clientAddress() },
    });
    // What the listing and whoami answer, as far as these tests read them.
    type Body = { data?: unknown[]; next_cursor?: string | null; acts_as?: unknown };
    return { status: response.status, body: await jsonOf<Body>(response) };
  };

  it(
    'creates the demo tenant with 2000 sample flights and prints a generated password once',
    { timeout: 180_000 },
    async () => {
      const dataDir = freshDataDir();
      const first = await start('first', { DATA_DIR: dataDir, AIRKEY_DEMO: '1', AIRKEY_ADMIN_PASSWORD: '' });
      const printed = first.output();
      expect(printed).toContain('airkey first start: created tenant "Demo Air" (slug demo) with 2000 sample flights.');
      expect(printed).toContain(`e-mail:   ${ADMIN.email}`);
      const password = /password: (\S+) {3}\(shown once/.exec(printed)?.[1];
      expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(printed.split(password!).length - 1).toBe(1);
      // The printed password is the admin's, and the demo flights are there.
      const session = await signIn(first, ADMIN.email, password);
      const { secret } = await createKey(session, first, 'first start');
      const page = await get(first, secret, '/api/v1/flights?limit=500');
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(500);
      expect(page.body.next_cursor).not.toBeNull();
      expect(await first.stop()).toBe(0);

      // The second start on the same directory prints no first-start block and no password.
      const again = await start('again', { DATA_DIR: dataDir, AIRKEY_DEMO: '1', AIRKEY_ADMIN_PASSWORD: '' });
      expect(again.output()).not.toContain('first start');
      expect(again.output()).not.toContain(password!);
      expect((await signIn(again, ADMIN.email, password)).userId).toBe(session.userId);
    },
  );

  it(
    'seeds no flights with AIRKEY_DEMO=0; set-authority, flights seed and migrate work against it while it runs',
    { timeout: 180_000 },
    async () => {
      const dataDir = freshDataDir();
      const server = await start('no-demo', { DATA_DIR: dataDir, AIRKEY_DEMO: '0' });
      expect(server.output()).toContain('with 0 sample flights.');
      const session = await signIn(server, ADMIN.email);
      const { secret } = await createKey(session, server, 'cli target');
      expect(await get(server, secret, '/api/v1/flights')).toEqual({
        status: 200,
        body: { data: [], next_cursor: null },
      });
      expect((await get(server, secret, '/api/v1/whoami')).body.acts_as).toEqual({
        type: 'user',
        id: session.userId,
        email: ADMIN.email,
      });

      const env = airkeyEnv(undefined, { DATA_DIR: dataDir });
      expect(
        JSON.parse(await cli(['flights', 'seed', '--tenant', 'demo', '--count', '7', '--json'], env)),
      ).toMatchObject({ inserted: 7 });
      const seeded = await get(server, secret, '/api/v1/flights?limit=50');
      expect(seeded.status).toBe(200);
      expect(seeded.body.data).toHaveLength(7);

      expect(
        JSON.parse(await cli(['tenant', 'set-authority', '--tenant', 'demo', '--authority', 'system', '--json'], env)),
      ).toMatchObject({ slug: 'demo', authority: 'system' });
      // Applied inside the running server: the next request acts as the system.
      expect((await get(server, secret, '/api/v1/whoami')).body.acts_as).toEqual({ type: 'system' });

      const migrated = await cli(['migrate'], env);
      expect(migrated.trim()).toBe('Migrations applied.');
      expect((await get(server, secret, '/api/v1/flights?limit=50')).body.data).toHaveLength(7);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    },
  );
});
