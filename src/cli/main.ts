import { Command, CommanderError, Option } from 'commander';
import { RemoteOperationError } from '../admin/admin-socket.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { AirkeyError, InvalidRequestError } from '../shared/errors.ts';
import { ROLES } from '../shared/roles.ts';
import { connect } from './connect.ts';
import { registerKeyPolicy } from './key-policy.ts';
import { registerScan } from './scan.ts';
import { registerSignInSettings } from './sign-in-settings.ts';
import { registerSsoDomain } from './sso-domain.ts';
import { serve } from './serve.ts';

type Output = { json?: boolean };

/** `bin/airkey`: thin adapters over the admin operations; one-line reasons, non-zero exits. */
export function buildCli(): Command {
  const program = new Command('airkey')
    .description('API keys for an airline-data platform')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ outputError: () => {} });

  const json = () => new Option('--json', 'print machine-readable JSON');
  const authority = () => new Option('--authority <authority>', 'what keys act as').choices(['creator', 'system']);
  const role = () =>
    new Option('--role <role>', `a role (repeatable): ${ROLES.join(', ')}`).argParser(
      (value: string, previous: string[] = []) => [...previous, value],
    );

  program
    .command('serve')
    .description('serve the back office, the public API and MCP (what npm start runs)')
    .option('--workers <n>', 'worker processes: a number or "auto" (PostgreSQL only)', '1')
    .addOption(json())
    .action(async (options: Output & { workers: string }) =>
      serve(loadConfig(), options.workers, options.json ?? false),
    );

  program
    .command('migrate')
    .description('apply database migrations (idempotent)')
    .addOption(json())
    .action(async (options: Output) =>
      run(
        options,
        (ops) => ops.migrate({}),
        () => 'Migrations applied.',
      ),
    );

  const tenant = program.command('tenant').description('manage tenants');
  tenant
    .command('create')
    .description('create a tenant')
    .requiredOption('--name <name>', 'display name')
    .option('--slug <slug>', 'URL-safe identifier (default: from the name)')
    .addOption(authority().default('creator'))
    .addOption(json())
    .action(async (options: Output & { name: string; slug?: string; authority: 'creator' | 'system' }) =>
      run(
        options,
        (ops) => ops.createTenant({ name: options.name, slug: options.slug, authority: options.authority }),
        (t) => `Created tenant ${t.slug} (${t.name}), id ${t.id}, authority ${t.authority}.`,
      ),
    );
  tenant
    .command('set-authority')
    .description("set what the tenant's keys act as")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .addOption(authority().makeOptionMandatory())
    .addOption(json())
    .action(async (options: Output & { tenant: string; authority: 'creator' | 'system' }) =>
      run(
        options,
        (ops) => ops.setAuthority({ tenant: options.tenant, authority: options.authority }),
        (t) => `Tenant ${t.slug}: keys now act as ${t.authority}.`,
      ),
    );

  const user = program.command('user').description('manage users');
  user
    .command('create')
    .description('create a user')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--email <email>', 'sign-in e-mail')
    .requiredOption('--name <name>', 'display name')
    .addOption(role())
    .option('--password <password>', 'password (prefer --password-stdin)')
    .option('--password-stdin', 'read the password from standard input')
    .addOption(json())
    .action(
      async (
        options: Output & {
          tenant: string;
          email: string;
          name: string;
          role?: string[];
          password?: string;
          passwordStdin?: boolean;
        },
      ) => {
        const password = await passwordFrom(options);
        await run(
          options,
          (ops) =>
            ops.createUser({
              tenant: options.tenant,
              email: options.email,
              name: options.name,
              roles: options.role ?? [],
              password,
            }),
          (u) => `Created ${u.email} in ${u.tenant.slug} with roles: ${u.roles.join(', ') || 'none'}.`,
        );
      },
    );
  user
    .command('set-roles')
    .description("replace a user's roles (takes effect on their keys at once)")
    .requiredOption('--email <email>', 'the user')
    .addOption(role())
    .option('--none', 'remove every role')
    .addOption(json())
    .action(async (options: Output & { email: string; role?: string[]; none?: boolean }) => {
      if (Boolean(options.none) === Boolean(options.role?.length)) {
        const reason = options.none ? 'Give --role or --none, not both.' : 'Give --role at least once, or --none.';
        throw new InvalidRequestError([{ path: 'role', message: reason }], reason);
      }
      await run(
        options,
        (ops) => ops.setRoles({ email: options.email, roles: options.none ? [] : options.role! }),
        (u) => `${u.email}: roles ${u.roles.join(', ') || 'none'}.`,
      );
    });
  user
    .command('reset-second-factors')
    .description("remove a user's second factors and recovery codes (a lost phone) and end their sessions")
    .requiredOption('--email <email>', 'the user')
    .addOption(json())
    .action(async (options: Output & { email: string }) =>
      run(
        options,
        (ops) => ops.resetSecondFactors({ email: options.email }),
        (r) => `Removed the second factors of ${r.reset} and ended their sessions.`,
      ),
    );
  user
    .command('delete')
    .description('delete a user (under creator authority their keys are disabled)')
    .requiredOption('--email <email>', 'the user')
    .addOption(json())
    .action(async (options: Output & { email: string }) =>
      run(
        options,
        (ops) => ops.deleteUser({ email: options.email }),
        (r) => `Deleted ${r.deleted}.`,
      ),
    );

  program
    .command('flights')
    .description('sample flights')
    .command('seed')
    .description('add realistic sample flights to a tenant')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--count <n>', 'how many', '200')
    .addOption(json())
    .action(async (options: Output & { tenant: string; count: string }) => {
      const count = Number(options.count);
      if (!Number.isInteger(count) || count < 1 || count > 100_000)
        throw new InvalidRequestError(
          [{ path: 'count', message: '--count must be a whole number from 1 to 100000.' }],
          '--count must be a whole number from 1 to 100000.',
        );
      await run(
        options,
        (ops) => ops.seedFlights({ tenant: options.tenant, count }),
        (r) => `Added ${r.inserted} flights to ${r.tenant}.`,
      );
    });

  registerKeyPolicy(program, run);
  registerSignInSettings(program, run);
  registerSsoDomain(program, run);
  registerScan(program);

  return program;
}

async function run<T>(
  options: Output,
  operation: (ops: Awaited<ReturnType<typeof connect>>['operations']) => Promise<T>,
  describe: (result: T) => string,
): Promise<void> {
  const connection = await connect(loadConfig());
  try {
    const result = await operation(connection.operations);
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${describe(result)}\n`);
  } finally {
    await connection.close();
  }
}

async function passwordFrom(options: { password?: string; passwordStdin?: boolean }): Promise<string> {
  if (options.password !== undefined && options.passwordStdin)
    throw new InvalidRequestError(
      [{ path: 'password', message: 'Use --password or --password-stdin, not both.' }],
      'Use --password or --password-stdin, not both.',
    );
  if (options.password !== undefined) return options.password;
  if (!options.passwordStdin)
    throw new InvalidRequestError(
      [{ path: 'password', message: 'Give --password or --password-stdin.' }],
      'Give --password or --password-stdin.',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildCli().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      process.stderr.write(`airkey: ${error.message.replace(/^error: /, '')}\n`);
      return error.exitCode || 2;
    }
    process.stderr.write(`airkey: ${reasonOf(error)}\n`);
    return 1;
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof RemoteOperationError) return problemLine(error.problem.detail, error.problem.errors);
  if (error instanceof InvalidRequestError) return problemLine(error.message, error.errors);
  if (error instanceof AirkeyError || error instanceof ConfigError) return error.message;
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

function problemLine(detail: string, errors?: Array<{ path: string; message: string }>): string {
  return errors && errors.length > 0 ? errors.map((e) => `${e.path}: ${e.message}`).join('; ') : detail;
}
