import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.ts';
import { loadConfig } from '../../src/config.ts';
import { ENGINES, storageFor } from '../support/databases.ts';
import { anyString } from '../support/use.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Run = { code: number | null; stdout: string; stderr: string };

/** `node bin/airkey …` as a user would run it, with the storage given by environment only. */
function airkey(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/airkey', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', REDIS_URL: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** A failure as docs/cli.md wants it: non-zero exit, one line of reason on stderr. */
function expectOneLineFailure(run: Run, reason?: RegExp) {
  expect(run.code, run.stdout + run.stderr).not.toBe(0);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^airkey: \S/);
  expect(run.stderr).not.toMatch(/\n\s+at\s/);
  if (reason) expect(lines[0]).toMatch(reason);
}

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size)
    results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  return results;
}

describe('the CLI without a database', () => {
  const VERBS = [
    [],
    ['serve'],
    ['migrate'],
    ['tenant', 'create'],
    ['tenant', 'set-authority'],
    ['user', 'create'],
    ['user', 'set-roles'],
    ['user', 'delete'],
    ['flights', 'seed'],
    ['scan'],
  ];

  it('prints help and exits 0 for every verb', async () => {
    const runs = await inBatches(VERBS, 4, (verb) => airkey([...verb, '--help']));
    runs.forEach((run, index) => {
      const verb = VERBS[index]!.join(' ');
      expect(run.code, verb).toBe(0);
      expect(run.stdout, verb).toContain(`Usage: airkey${verb ? ` ${verb}` : ''}`);
    });
    // Every verb but serve prints machine-readable output on request.
    runs.forEach((run, index) => {
      if (VERBS[index]!.length > 0 && VERBS[index]![0] !== 'serve')
        expect(run.stdout, VERBS[index]!.join(' ')).toContain('--json');
    });
  }, 120_000);

  it('refuses bad arguments with a non-zero exit and a one-line reason, before touching any data', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['fly'], /unknown command/i],
      [['tenant', 'create'], /--name/],
      [['tenant', 'create', '--name', 'X', '--authority', 'everyone'], /authority/],
      [['tenant', 'set-authority', '--tenant', 'x'], /--authority/],
      [['user', 'create', '--tenant', 't', '--email', 'e@example.test', '--name', 'N', '--role', 'crew'], /password/],
      [
        [
          'user',
          'create',
          '--tenant',
          't',
          '--email',
          'e@example.test',
          '--name',
          'N',
          '--password',
          'p',
          '--password-stdin',
        ],
        /password/,
      ],
      [['user', 'set-roles', '--email', 'e@example.test'], /--role at least once, or --none/],
      [['user', 'set-roles', '--email', 'e@example.test', '--role', 'crew', '--none'], /--role|--none/],
      [['user', 'delete'], /--email/],
      [['flights', 'seed', '--tenant', 't', '--count', '0'], /count/],
      [['flights', 'seed', '--tenant', 't', '--count', 'many'], /count/],
      [['migrate', '--verbose'], /unknown option/i],
    ];
    const dataDir = mkdtempSync(join(tmpdir(), 'airkey-cli-untouched-'));
    const runs = await inBatches(cases, 4, ([args]) => airkey(args, { DATA_DIR: dataDir }));
    runs.forEach((run, index) => expectOneLineFailure(run, cases[index]![1]));
    expect(readdirSync(dataDir)).toEqual([]);
  }, 120_000);

  it('refuses a malformed environment with a one-line reason', async () => {
    expectOneLineFailure(await airkey(['migrate'], { MAX_KEYS_PER_TENANT: 'lots' }), /MAX_KEYS_PER_TENANT/);
    expectOneLineFailure(await airkey(['migrate'], { DATABASE_URL: 'mysql://nope' }), /DATABASE_URL/);
  }, 120_000);
});

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
    storage = await storageFor(engine);
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
      const tenant = await services.tenants.requireBySlug(slug);
      expect(tenant.keyAuthority).toBe('creator');
      expect(await services.userRepository.findByEmail(email)).toBeUndefined();
      const flights = await services.flightRepository.list(tenant.id, {}, 1000);
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
