import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { airkey, expectOneLineFailure, inBatches } from './cli-kit.ts';

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
    ['sign-in-settings', 'set'],
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
      [['sign-in-settings', 'set', '--tenant', 'x'], /--password-sign-in/],
      [['sign-in-settings', 'set', '--tenant', 'x', '--password-sign-in', 'maybe'], /password-sign-in/],
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
