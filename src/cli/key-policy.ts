import { InvalidArgumentError, Option, type Command } from 'commander';
import type { AdminOperations } from '../admin/operations.ts';
import type { KeyPolicy } from '../keys/policy/key-policy.ts';
import { InvalidRequestError } from '../shared/errors.ts';

type Output = { json?: boolean };
type Run = <T>(
  options: Output,
  operation: (ops: AdminOperations) => Promise<T>,
  describe: (result: T) => string,
) => Promise<void>;

/** `none` stays a word until the change is built: commander turns an option's null value into ''. */
type Days = number | 'none';
const daysValue = (days: Days | undefined) => (days === 'none' ? null : days);

type SetOptions = Output & {
  tenant: string;
  maxLifetimeDays?: Days;
  requireExpiry?: boolean;
  disableUnusedAfterDays?: Days;
  requireAllowedIps?: boolean;
};

/** `airkey key-policy show|set`: the tenant's key policy through KeyPolicyService (docs/cli.md). */
export function registerKeyPolicy(program: Command, run: Run): void {
  const json = () => new Option('--json', 'print machine-readable JSON');
  const keyPolicy = program.command('key-policy').description("show or change a tenant's key policy");
  keyPolicy
    .command('show')
    .description("print the tenant's key policy")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .addOption(json())
    .action(async (options: Output & { tenant: string }) =>
      run(
        options,
        (ops) => ops.showKeyPolicy({ tenant: options.tenant }),
        (policy) => describePolicy(options.tenant, policy),
      ),
    );
  keyPolicy
    .command('set')
    .description('change the rules given; the others stay as they are (keys made from now on)')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .addOption(days('--max-lifetime-days <days>', 'longest lifetime of a new key: 1–3650 days, or none'))
    .addOption(flag('--require-expiry <bool>', 'every new key needs an expiry date'))
    .addOption(days('--disable-unused-after-days <days>', 'disable keys unused this long: 1–3650 days, or none'))
    .addOption(flag('--require-allowed-ips <bool>', 'every new key needs allowed_ips'))
    .addOption(json())
    .action(async (options: SetOptions) => {
      const change = {
        max_lifetime_days: daysValue(options.maxLifetimeDays),
        require_expiry: options.requireExpiry,
        disable_unused_after_days: daysValue(options.disableUnusedAfterDays),
        require_allowed_ips: options.requireAllowedIps,
      };
      if (Object.values(change).every((value) => value === undefined)) {
        const reason =
          'Give at least one of --max-lifetime-days, --require-expiry, --disable-unused-after-days, --require-allowed-ips.';
        throw new InvalidRequestError([{ path: 'key-policy', message: reason }], reason);
      }
      const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
      await run(
        options,
        (ops) => ops.setKeyPolicy({ tenant: options.tenant, change: given }),
        (policy) => describePolicy(options.tenant, policy),
      );
    });
}

function days(flags: string, description: string): Option {
  return new Option(flags, description).argParser((value: string): Days => {
    if (value === 'none') return value;
    if (!/^\d{1,5}$/.test(value)) throw new InvalidArgumentError('Use a whole number of days from 1 to 3650, or none.');
    return Number(value);
  });
}

function flag(flags: string, description: string): Option {
  return new Option(flags, description).choices(['true', 'false']).argParser((value: string) => {
    if (value !== 'true' && value !== 'false') throw new InvalidArgumentError('Use true or false.');
    return value === 'true';
  });
}

function describePolicy(tenant: string, policy: KeyPolicy): string {
  const dayCount = (n: number | null, none: string) => (n === null ? none : `${n} days`);
  return [
    `Key policy of ${tenant}:`,
    `  maximum lifetime:       ${dayCount(policy.max_lifetime_days, 'none')}`,
    `  expiry required:        ${policy.require_expiry ? 'yes' : 'no'}`,
    `  disable unused after:   ${dayCount(policy.disable_unused_after_days, 'never')}`,
    `  allowed IPs required:   ${policy.require_allowed_ips ? 'yes' : 'no'}`,
  ].join('\n');
}
