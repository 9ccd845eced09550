import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.ts';
import { loadConfig } from '../../src/config.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { storageFor } from '../support/databases.ts';
import { airkey, expectOneLineFailure } from './cli-kit.ts';

/** `airkey sso move-domain`: how an operator gives a domain one tenant lists to another (docs/sso.md). */
describe('the CLI moves a single sign-on domain between tenants', () => {
  const id = randomBytes(3).toString('hex');
  const [north, south, bare] = [`north-${id}`, `south-${id}`, `bare-${id}`];
  let storage: { databaseUrl?: string; dataDir: string };
  let env: Record<string, string>;
  const sso = (domains: string[]) => ({
    issuer: 'https://login.example.com',
    client_id: 'airkey',
    client_secret: 'a client secret',
    allowed_domains: domains,
    default_roles: [],
    role_claim: null,
    role_map: {},
    create_users: false,
  });
  const domainsOf = async (slug: string) => {
    const services = await createServices({ ...loadConfig({}), ...storage });
    try {
      const tenant = await services.accounts.tenants.requireBySlug(slug);
      return (await services.signIn.ssoAdmin.domainsOf(tenant.id)) ?? null;
    } finally {
      await services.close();
    }
  };

  beforeAll(async () => {
    storage = await storageFor('pglite');
    env = { DATA_DIR: storage.dataDir };
    const services = await createServices({ ...loadConfig({}), ...storage });
    try {
      for (const slug of [north, south, bare])
        await services.accounts.tenants.create(SYSTEM_ACTOR, { name: slug, slug });
      await services.signIn.settings.updateAsSystem(SYSTEM_ACTOR, north, { sso: sso(['fjord.test', 'north.test']) });
      await services.signIn.settings.updateAsSystem(SYSTEM_ACTOR, south, { sso: sso(['south.test']) });
    } finally {
      await services.close();
    }
  }, 120_000);

  it('moves a domain from one tenant to another in one step', async () => {
    const run = await airkey(
      ['sso', 'move-domain', '--domain', 'Fjord.test', '--from', north, '--to', south, '--json'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ domain: 'fjord.test', from: north, to: south });
    expect(await domainsOf(north)).toEqual(['north.test']);
    expect(await domainsOf(south)).toEqual(['fjord.test', 'south.test']);
  }, 60_000);

  it('removes a domain when no tenant is named to take it', async () => {
    const run = await airkey(['sso', 'move-domain', '--domain', 'north.test', '--from', north], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`Removed north.test from ${north}`);
    expect(await domainsOf(north)).toEqual([]);
  }, 60_000);

  it('refuses a domain the tenant does not list, or a tenant without single sign-on, in one line', async () => {
    expectOneLineFailure(
      await airkey(['sso', 'move-domain', '--domain', 'nowhere.test', '--from', south, '--to', north], env),
      /does not allow nowhere\.test/,
    );
    expectOneLineFailure(
      await airkey(['sso', 'move-domain', '--domain', 'south.test', '--from', south, '--to', bare], env),
      /has no single sign-on/,
    );
    // Nothing moved.
    expect(await domainsOf(south)).toEqual(['fjord.test', 'south.test']);
  }, 60_000);
});
