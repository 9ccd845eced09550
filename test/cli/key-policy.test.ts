import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../src/app/services.ts';
import { loadConfig } from '../../src/config.ts';
import type { KeyPolicy } from '../../src/keys/policy/key-policy.ts';
import { SYSTEM_ACTOR, type UserActor } from '../../src/shared/actor.ts';
import { signedInAs } from '../support/actors.ts';
import { KeyPolicyViolationError } from '../../src/shared/errors.ts';
import { ENGINES, storageFor } from '../support/databases.ts';
import { airkey, expectOneLineFailure, type Run } from './cli-kit.ts';
import { rowsOf } from '../support/rows.ts';

const DEFAULTS: KeyPolicy = {
  max_lifetime_days: null,
  require_expiry: false,
  disable_unused_after_days: null,
  require_allowed_ips: false,
};
const json = <T>(run: Run): T => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
};

/** `airkey key-policy show|set` (docs/cli.md), through the same service as the back office. */
describe.each(ENGINES)('airkey key-policy on %s', (engine) => {
  let env: Record<string, string>;
  const slug = `pol-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    const storage = await storageFor(engine);
    env = storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : { DATA_DIR: storage.dataDir };
    expect((await airkey(['tenant', 'create', '--name', 'Policy Air', '--slug', slug], env)).code).toBe(0);
  }, 120_000);

  it('shows the defaults, sets every rule, and keeps what a later set leaves out', async () => {
    expect(json(await airkey(['key-policy', 'show', '--tenant', slug, '--json'], env))).toEqual(DEFAULTS);
    const all = [
      ...['--max-lifetime-days', '90', '--require-expiry', 'true'],
      ...['--disable-unused-after-days', '365', '--require-allowed-ips', 'true'],
    ];
    const strict = {
      max_lifetime_days: 90,
      require_expiry: true,
      disable_unused_after_days: 365,
      require_allowed_ips: true,
    };
    expect(json(await airkey(['key-policy', 'set', '--tenant', slug, ...all, '--json'], env))).toEqual(strict);
    const human = await airkey(['key-policy', 'set', '--tenant', slug, '--max-lifetime-days', 'none'], env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/maximum lifetime:\s+none/);
    expect(human.stdout).toMatch(/disable unused after:\s+365 days/);
    expect(json(await airkey(['key-policy', 'show', '--tenant', slug, '--json'], env))).toEqual({
      ...strict,
      max_lifetime_days: null,
    });
  }, 120_000);

  it('refuses bad input with one line and a non-zero exit, changing nothing', async () => {
    const set = (...args: string[]) => airkey(['key-policy', 'set', '--tenant', slug, ...args], env);
    expectOneLineFailure(await set('--max-lifetime-days', '0'), /max_lifetime_days/);
    expectOneLineFailure(await set('--disable-unused-after-days', '3651'), /disable_unused_after_days/);
    expectOneLineFailure(await set('--max-lifetime-days', 'ninety'), /--max-lifetime-days/);
    expectOneLineFailure(await set('--require-expiry', 'yes'), /--require-expiry/);
    expectOneLineFailure(await set(), /at least one/);
    expectOneLineFailure(await airkey(['key-policy', 'show', '--tenant', 'no-such-tenant'], env), /no-such-tenant/);
    const help = await airkey(['key-policy', 'set', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--disable-unused-after-days');
    expect(
      json<KeyPolicy>(await airkey(['key-policy', 'show', '--tenant', slug, '--json'], env)).max_lifetime_days,
    ).toBeNull();
  }, 120_000);
});

/** Each rule set on and off with the CLI, and the key service refusing or accepting accordingly. */
describe('a policy set with the CLI binds every adapter (postgres)', () => {
  let env: Record<string, string>;
  let services: ServiceRoot;
  let actor: UserActor;
  const slug = `pol-${randomBytes(3).toString('hex')}`;
  const set = async (...args: string[]) =>
    expect((await airkey(['key-policy', 'set', '--tenant', slug, ...args], env)).code).toBe(0);
  const refusedRules = async (input: { name: string; expires_at?: string }) => {
    const failure = await services.keys.lifecycle.create(actor, input).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (failure === undefined) return [];
    expect(failure).toBeInstanceOf(KeyPolicyViolationError);
    return (failure as KeyPolicyViolationError).rules;
  };

  beforeAll(async () => {
    const storage = await storageFor('postgres');
    env = { DATABASE_URL: storage.databaseUrl! };
    services = await createServices({ ...loadConfig({}), ...storage });
    const tenant = await services.accounts.tenants.create(SYSTEM_ACTOR, { name: 'Bound Air', slug });
    const user = await services.accounts.users.create(SYSTEM_ACTOR, tenant.id, {
      email: `${slug}@bound.test`,
      name: 'Admin',
      password: 'a-long-test-password',
      roles: ['system_administrator'],
    });
    actor = signedInAs((await rowsOf(services).users.findById(user.id))!);
  }, 120_000);
  afterAll(async () => services?.close());

  it('require_expiry on refuses a key without expiry; off accepts it', async () => {
    await set('--require-expiry', 'true');
    expect(await refusedRules({ name: 'no expiry' })).toEqual(['require_expiry']);
    await set('--require-expiry', 'false');
    expect(await refusedRules({ name: 'no expiry' })).toEqual([]);
  }, 120_000);

  it('max_lifetime_days on refuses a distant expiry; none accepts it', async () => {
    await set('--max-lifetime-days', '30');
    expect(await refusedRules({ name: 'distant', expires_at: '2099-01-01' })).toEqual(['max_lifetime_days']);
    await set('--max-lifetime-days', 'none');
    expect(await refusedRules({ name: 'distant', expires_at: '2099-01-01' })).toEqual([]);
  }, 120_000);

  it('require_allowed_ips on refuses a key without allowed_ips; off accepts it, and each change is audited', async () => {
    await set('--require-allowed-ips', 'true');
    expect(await refusedRules({ name: 'open' })).toEqual(['require_allowed_ips']);
    await set('--require-allowed-ips', 'false');
    expect(await refusedRules({ name: 'open' })).toEqual([]);
    const trail = (await services.audit.list(SYSTEM_ACTOR, actor.tenantId, 50)).data;
    const changes = trail.filter((event) => event.action === 'tenant.key_policy_changed');
    expect(changes).toHaveLength(6);
    expect(changes.every((event) => event.actor.type === 'system')).toBe(true);
  }, 120_000);
});
