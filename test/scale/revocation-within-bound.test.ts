import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createServices } from '../../src/app/services.ts';
import { loadConfig } from '../../src/config.ts';
import { ADMIN, airkeyEnv, apiStatus, cli, createKey, runCli, signIn } from './instances.ts';
import { feedLag, propagation } from './propagation.ts';
import { TRIALS, CLI_TRIALS, BOUND_MS, WHOAMI, FLIGHTS, is, databaseUrl, a, b, c, admin, figures, others, warm, userWithKey, useThreeInstances } from './three-instances.ts';

/** Figures: every change made on A (or with the CLI) rejects the key on the other instances within BOUND_MS. */
describe('three instances on one PostgreSQL: changes reach every instance within the bound', () => {
  useThreeInstances();

  it(`rejects a key disabled on A on B and C within ${BOUND_MS} ms`, async () => {
    const { id, secret } = await createKey(admin, a);
    for (let trial = 0; trial < TRIALS; trial++) {
      const enabled = await admin.request(a, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: true });
      expect(enabled.status).toBe(200);
      figures.add('key enabled on A (access restored)', await propagation(others(), secret, WHOAMI, is(200), performance.now()));
      await warm(secret, WHOAMI, 200);
      const disabled = await admin.request(a, 'PATCH', `/backoffice/api/api-keys/${id}`, { enabled: false });
      const changedAt = performance.now();
      expect(disabled.status).toBe(200);
      figures.add('key disabled on A', await propagation(others(), secret, WHOAMI, is(401), changedAt));
      figures.add('  of which feed lag (commit -> heard on B, C)', await feedLag(others()));
    }
    expect(figures.max('key disabled on A')).toBeLessThanOrEqual(BOUND_MS);
  }, 60_000);

  it(`rejects a key deleted on A on B and C within ${BOUND_MS} ms`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const { id, secret } = await createKey(admin, a);
      await warm(secret, WHOAMI, 200);
      const deleted = await admin.request(a, 'DELETE', `/backoffice/api/api-keys/${id}`);
      const changedAt = performance.now();
      expect(deleted.status).toBe(204);
      figures.add('key deleted on A', await propagation(others(), secret, WHOAMI, is(401), changedAt));
    }
    expect(figures.max('key deleted on A')).toBeLessThanOrEqual(BOUND_MS);
  }, 60_000);

  it(`narrows a key on B and C within ${BOUND_MS} ms when its creator loses flights:read on A`, async () => {
    const user = await userWithKey();
    for (let trial = 0; trial < TRIALS; trial++) {
      expect((await admin.request(a, 'PATCH', `/backoffice/api/users/${user.id}`, { roles: ['operations'] })).status).toBe(200);
      await warm(user.key, FLIGHTS, 200);
      const narrowed = await admin.request(a, 'PATCH', `/backoffice/api/users/${user.id}`, { roles: ['crew'] });
      const changedAt = performance.now();
      expect(narrowed.status).toBe(200);
      figures.add('creator loses flights:read on A (403)', await propagation(others(), user.key, FLIGHTS, is(403), changedAt));
    }
    expect(figures.max('creator loses flights:read on A (403)')).toBeLessThanOrEqual(BOUND_MS);
  }, 60_000);

  it(`rejects the keys of a user deleted on A on B and C within ${BOUND_MS} ms`, async () => {
    const users = await Promise.all(Array.from({ length: TRIALS }, () => userWithKey()));
    for (const user of users) {
      await warm(user.key, WHOAMI, 200);
      const deleted = await admin.request(a, 'DELETE', `/backoffice/api/users/${user.id}`);
      const changedAt = performance.now();
      expect(deleted.status).toBe(204);
      figures.add('creator deleted on A', await propagation(others(), user.key, WHOAMI, is(401), changedAt));
    }
    expect(figures.max('creator deleted on A')).toBeLessThanOrEqual(BOUND_MS);
  }, 90_000);

  it(`narrows a key on A, B and C within ${BOUND_MS} ms when the CLI sets the tenant's authority to creator`, async () => {
    const env = airkeyEnv(databaseUrl);
    const writer = await createServices(loadConfig(env));
    onTestFinished(() => writer.close());
    const slug = `auth-${randomBytes(3).toString('hex')}`;
    const email = `v-${slug}@scale.test`;
    await cli(['tenant', 'create', '--name', 'Authority Air', '--slug', slug, '--authority', 'system'], env);
    await cli(['user', 'create', '--tenant', slug, '--email', email, '--name', 'V', '--role', 'system_administrator', '--password', ADMIN.password], env);
    const key = (await createKey(await signIn(a, email), a)).secret;
    await cli(['user', 'set-roles', '--email', email, '--role', 'crew'], env); // the creator alone may not read flights
    const all = [a, b, c];
    for (let trial = 0; trial < TRIALS; trial++) {
      await warm(key, FLIGHTS, 200);
      expect(await apiStatus(a, key, FLIGHTS)).toBe(200);
      const narrowing = runCli(['tenant', 'set-authority', '--tenant', slug, '--authority', 'creator'], env);
      const changedAt = await narrowing.printed;
      figures.add('authority system -> creator (CLI)', await propagation(all, key, FLIGHTS, is(403), changedAt));
      figures.add('  of which feed lag (commit -> heard on A, B, C)', await feedLag(all));
      expect((await narrowing.done).code).toBe(0);
      // Restored through the same services the CLI uses, in this process, to keep the suite short.
      await writer.tenants.setAuthority(slug, 'system');
      figures.add('authority creator -> system (access restored)', await propagation(all, key, FLIGHTS, is(200), performance.now()));
    }
    expect(figures.max('authority system -> creator (CLI)')).toBeLessThanOrEqual(BOUND_MS);
  }, 120_000);

  it(`applies the CLI's user set-roles and user delete on A, B and C within ${BOUND_MS} ms`, async () => {
    const env = airkeyEnv(databaseUrl);
    const all = [a, b, c];
    const narrowed = await userWithKey();
    for (let trial = 0; trial < CLI_TRIALS; trial++) {
      expect((await admin.request(a, 'PATCH', `/backoffice/api/users/${narrowed.id}`, { roles: ['operations'] })).status).toBe(200);
      await warm(narrowed.key, FLIGHTS, 200);
      expect(await apiStatus(a, narrowed.key, FLIGHTS)).toBe(200);
      const run = runCli(['user', 'set-roles', '--email', narrowed.email, '--role', 'crew'], env);
      figures.add('user set-roles (CLI) removes flights:read (403)', await propagation(all, narrowed.key, FLIGHTS, is(403), await run.printed));
      figures.add('  of which feed lag (CLI set-roles -> heard on A, B, C)', await feedLag(all));
      expect((await run.done).code).toBe(0);
    }
    const users = await Promise.all(Array.from({ length: CLI_TRIALS }, () => userWithKey()));
    for (const user of users) {
      await warm(user.key, WHOAMI, 200);
      expect(await apiStatus(a, user.key, WHOAMI)).toBe(200);
      const run = runCli(['user', 'delete', '--email', user.email], env);
      figures.add('user delete (CLI)', await propagation(all, user.key, WHOAMI, is(401), await run.printed));
      expect((await run.done).code).toBe(0);
    }
    expect(figures.max('user set-roles (CLI) removes flights:read (403)')).toBeLessThanOrEqual(BOUND_MS);
    expect(figures.max('user delete (CLI)')).toBeLessThanOrEqual(BOUND_MS);
  }, 120_000);
});
