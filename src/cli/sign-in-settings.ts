import { Option, type Command } from 'commander';
import type { AdminOperations } from '../admin/operations.ts';
import type { SignInSettings } from '../tenants/sign-in-settings-schemas.ts';

type Output = { json?: boolean };
type Run = <T>(
  options: Output,
  operation: (ops: AdminOperations) => Promise<T>,
  describe: (result: T) => string,
) => Promise<void>;

/**
 * `airkey sign-in-settings set --tenant S --password-sign-in true`: turns password sign-in back on
 * for a tenant whose identity provider is down (docs/sso.md).
 */
export function registerSignInSettings(program: Command, run: Run): void {
  program
    .command('sign-in-settings')
    .description("change a tenant's sign-in settings")
    .command('set')
    .description('turn password (and passkey) sign-in on or off')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .addOption(
      new Option('--password-sign-in <bool>', 'whether passwords sign in')
        .choices(['true', 'false'])
        .makeOptionMandatory(),
    )
    .addOption(new Option('--json', 'print machine-readable JSON'))
    .action(async (options: Output & { tenant: string; passwordSignIn: 'true' | 'false' }) =>
      run(
        options,
        (ops) => ops.setPasswordSignIn({ tenant: options.tenant, enabled: options.passwordSignIn === 'true' }),
        (settings: SignInSettings) =>
          `Password sign-in of ${options.tenant}: ${settings.password_sign_in ? 'on' : 'off'}` +
          (settings.sso ? ` (single sign-on: ${settings.sso.issuer})` : ''),
      ),
    );
}
