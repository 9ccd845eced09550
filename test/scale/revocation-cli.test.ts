import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createServices } from '../../src/app/services.ts';
import { loadConfig } from '../../src/config.ts';
import { ADMIN, airkeyEnv, apiStatus, cli, createKey, signIn } from '../support/instances.ts';
import { propagation } from './propagation.ts';
import { CLI_TRIALS, expectEachAnswered, FLIGHTS, is, threeInstances, WHOAMI, type Answer } from './three-instances.ts';

/**
 * Changes made with the CLI (docs/keys.md (Revocation)): its output counts as its response, so in
 * the tick it prints its result the key is fired at A, B and C, where it was cached, and each must
 * refuse it with the one status the contract fixes.
 */
describe('three instances on one PostgreSQL: changes made with the CLI', () => {
  const t = threeInstances();

  it(`refuses flights with 403 on every instance to a key once the CLI that set the authority to creator has printed (${CLI_TRIALS} trials)`, async () => {
    const env = airkeyEnv(t.databaseUrl);
    const writer = await createServices(loadConfig(env));
    onTestFinished(() => writer.close());
    const slug = `auth-${randomBytes(3).toString('hex')}`;
    const email = `v-${slug}@scale.test`;
    await cli(['tenant', 'create', '--name', 'Authority Air', '--slug', slug, '--authority', 'system'], env);
    await cli(
      [
        ...['user', 'create', '--tenant', slug, '--email', email, '--name', 'V'],
        ...['--role', 'system_administrator', '--password', ADMIN.password],
      ],
      env,
    );
    const key = (await createKey(await signIn(t.a, email), t.a)).secret;
    await cli(['user', 'set-roles', '--email', email, '--role', 'crew'], env); // the creator alone may not read flights
    const answers: Answer[] = [];
    for (let trial = 0; trial < CLI_TRIALS; trial++) {
      // Restored through the same services the CLI uses, in this process, to keep the suite short.
      await writer.accounts.tenants.setAuthority(SYSTEM_ACTOR, slug, 'system');
      await propagation([t.a, t.b, t.c], key, FLIGHTS, is(200), performance.now());
      const narrow = ['tenant', 'set-authority', '--tenant', slug, '--authority', 'creator'];
      answers.push(...(await t.revokeWithCli(narrow, key, FLIGHTS)));
    }
    expectEachAnswered(answers, 403, [t.a, t.b, t.c], CLI_TRIALS);
  }, 180_000);

  it(`refuses flights with 403 for a role the CLI removed, and with 401 the key of a user it deleted, on every instance once it has printed (${CLI_TRIALS} trials each)`, async () => {
    const narrowed = await t.userWithKey();
    const narrowedAnswers: Answer[] = [];
    for (let trial = 0; trial < CLI_TRIALS; trial++) {
      const widen = await t.admin.request(t.a, 'PATCH', `/backoffice/api/users/${narrowed.id}`, {
        roles: ['operations'],
      });
      expect(widen.status).toBe(200);
      await t.warm(narrowed.key, FLIGHTS, 200);
      expect(await apiStatus(t.a, narrowed.key, FLIGHTS)).toBe(200);
      const narrow = ['user', 'set-roles', '--email', narrowed.email, '--role', 'crew'];
      narrowedAnswers.push(...(await t.revokeWithCli(narrow, narrowed.key, FLIGHTS)));
    }
    expectEachAnswered(narrowedAnswers, 403, [t.a, t.b, t.c], CLI_TRIALS);
    const users = await Promise.all(Array.from({ length: CLI_TRIALS }, () => t.userWithKey()));
    const deletedAnswers: Answer[] = [];
    for (const user of users) {
      await t.warm(user.key, WHOAMI, 200);
      expect(await apiStatus(t.a, user.key, WHOAMI)).toBe(200);
      deletedAnswers.push(...(await t.revokeWithCli(['user', 'delete', '--email', user.email], user.key, WHOAMI)));
    }
    expectEachAnswered(deletedAnswers, 401, [t.a, t.b, t.c], CLI_TRIALS);
  }, 300_000);
});
