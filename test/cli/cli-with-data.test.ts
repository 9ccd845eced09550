import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.ts';
import { loadConfig } from '../../src/config.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { ENGINES, storageFor } from '../support/databases.ts';
import { anyString } from '../support/use.ts';
import { airkey, expectOneLineFailure, type Run } from './cli-kit.ts';
import { rowsOf } from '../support/rows.ts';

describe.each(ENGINES)('the CLI on %s with no server running', (engine) => {
  let env: Record<string, string>;
  let storage: { databaseUrl?: string; dataDir: string };
  const slug = `acme-${randomBytes(3).toString('hex')}`;
  const email = `ops-${randomBytes(3).toString('hex')}@acme.test`;
  const json = <T>(run: Run): T => {
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as T;
  };

  beforeAll(async () => {
    // Empty: the first test migrates it.
    storage = await storageFor(engine, { migrated: false });
    env = storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : { DATA_DIR: storage.dataDir };
  });

  it('migrates, twice without harm', async () => {
    expect(json(await airkey(['migrate', '--json'], env))).toEqual({ migrated: true });
    const again = await airkey(['migrate'], env);
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split('\n')).toHaveLength(1);
  }, 120_000);

  it('creates a tenant and refuses a taken or malformed slug', async () => {
    const tenant = json<{ id: string; slug: string; name: string; authority: string }>(
      await airkey(['tenant', 'create', '--name', 'Acme Air', '--slug', slug, '--json'], env),
    );
    expect(tenant).toMatchObject({ slug, name: 'Acme Air', authority: 'creator', id: anyString() });
    expectOneLineFailure(
      await airkey(['tenant', 'create', '--name', 'Acme Again', '--slug', slug], env),
      new RegExp(slug),
    );
    expectOneLineFailure(await airkey(['tenant', 'create', '--name', 'Bad', '--slug', 'Not A Slug'], env), /slug/);
  }, 120_000);

  it('creates a user with a password from stdin and refuses bad ones', async () => {
    const user = json<{ email: string; roles: string[]; tenant: { slug: string } }>(
      await airkey(
        [
          'user',
          'create',
          '--tenant',
          slug,
          '--email',
          email,
          '--name',
          'Ops Person',
          '--role',
          'system_administrator',
          '--role',
          'operations',
          '--password-stdin',
          '--json',
        ],
        env,
        'a-long-cli-password\n',
      ),
    );
    expect(user).toMatchObject({ email, roles: ['system_administrator', 'operations'], tenant: { slug } });
    expectOneLineFailure(
      await airkey(
        [
          'user',
          'create',
          '--tenant',
          slug,
          '--email',
          'x@acme.test',
          '--name',
          'X',
          '--role',
          'pilot',
          '--password',
          'a-long-cli-password',
        ],
        env,
      ),
      /role/i,
    );
    expectOneLineFailure(
      await airkey(
        [
          'user',
          'create',
          '--tenant',
          slug,
          '--email',
          email,
          '--name',
          'Dup',
          '--role',
          'crew',
          '--password',
          'a-long-cli-password',
        ],
        env,
      ),
      /e-mail|exists/i,
    );
    expectOneLineFailure(
      await airkey(
        [
          'user',
          'create',
          '--tenant',
          'no-such-tenant',
          '--email',
          'y@acme.test',
          '--name',
          'Y',
          '--role',
          'crew',
          '--password',
          'a-long-cli-password',
        ],
        env,
      ),
      /tenant/i,
    );
    expectOneLineFailure(
      await airkey(
        [
          'user',
          'create',
          '--tenant',
          slug,
          '--email',
          'z@acme.test',
          '--name',
          'Z',
          '--role',
          'crew',
          '--password',
          'short',
        ],
        env,
      ),
      /password/i,
    );
  }, 120_000);

  it('replaces roles, and removes them all with --none', async () => {
    expect(
      json<{ roles: string[] }>(await airkey(['user', 'set-roles', '--email', email, '--role', 'crew', '--json'], env))
        .roles,
    ).toEqual(['crew']);
    expect(
      json<{ roles: string[] }>(await airkey(['user', 'set-roles', '--email', email, '--none', '--json'], env)).roles,
    ).toEqual([]);
    expectOneLineFailure(
      await airkey(['user', 'set-roles', '--email', 'ghost@acme.test', '--role', 'crew'], env),
      /ghost@acme\.test/,
    );
  }, 120_000);

  it('seeds flights and switches the tenant authority', async () => {
    expect(json(await airkey(['flights', 'seed', '--tenant', slug, '--count', '25', '--json'], env))).toEqual({
      tenant: slug,
      inserted: 25,
    });
    expect(
      json<{ authority: string }>(
        await airkey(['tenant', 'set-authority', '--tenant', slug, '--authority', 'system', '--json'], env),
      ).authority,
    ).toBe('system');
    const human = await airkey(['tenant', 'set-authority', '--tenant', slug, '--authority', 'creator'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('creator');
  }, 120_000);

  it('deletes a user, once', async () => {
    expect(json(await airkey(['user', 'delete', '--email', email, '--json'], env))).toEqual({ deleted: email });
    expectOneLineFailure(
      await airkey(['user', 'delete', '--email', email], env),
      new RegExp(email.replace('.', '\\.')),
    );
  }, 120_000);

  describe('afterwards, the data', () => {
    let services: Awaited<ReturnType<typeof createServices>>;
    beforeAll(async () => {
      services = await createServices({ ...loadConfig({}), ...storage });
    });
    afterAll(async () => services.close());

    it('holds what the CLI did, with an audit trail', async () => {
      const tenant = await services.accounts.tenants.requireBySlug(slug);
      expect(tenant.keyAuthority).toBe('creator');
      expect(await rowsOf(services).users.findByEmail(email)).toBeUndefined();
      const flights = await rowsOf(services).flights.list(tenant.id, {}, 1000);
      expect(flights).toHaveLength(25);
      const actions = (await services.audit.list(SYSTEM_ACTOR, tenant.id, 50)).data
        .map((e) => [e.action, e.actor.type])
        .reverse();
      expect(actions).toEqual([
        ['user.created', 'system'],
        ['user.roles_changed', 'system'],
        ['user.roles_changed', 'system'],
        ['tenant.authority_changed', 'system'],
        ['tenant.authority_changed', 'system'],
        ['user.deleted', 'system'],
      ]);
    });
  });
});
