import { Option, type Command } from 'commander';
import type { AdminOperations } from '../admin/operations.ts';
import type { DomainMoved } from '../sso/sso-admin.ts';

type Output = { json?: boolean };
type Run = <T>(
  options: Output,
  operation: (ops: AdminOperations) => Promise<T>,
  describe: (result: T) => string,
) => Promise<void>;

/**
 * `airkey sso move-domain --domain D --from S [--to T]`: a domain is in one tenant's single
 * sign-on at most, so moving one to another tenant is an operator's act (docs/sso.md).
 */
export function registerSsoDomain(program: Command, run: Run): void {
  program
    .command('sso')
    .description("change a tenant's single sign-on")
    .command('move-domain')
    .description("take an e-mail domain from one tenant's single sign-on, and give it to another")
    .requiredOption('--domain <domain>', 'the e-mail domain, e.g. example.com')
    .requiredOption('--from <slug>', 'the tenant that lists it now')
    .option('--to <slug>', 'the tenant to list it instead (without it, the domain is only removed)')
    .addOption(new Option('--json', 'print machine-readable JSON'))
    .action(async (options: Output & { domain: string; from: string; to?: string }) =>
      run(
        options,
        (ops) => ops.moveSsoDomain({ domain: options.domain, from: options.from, to: options.to }),
        (moved: DomainMoved) =>
          moved.to
            ? `Moved ${moved.domain} from ${moved.from} to ${moved.to}`
            : `Removed ${moved.domain} from ${moved.from}`,
      ),
    );
}
