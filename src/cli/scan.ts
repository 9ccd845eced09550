import { type Command, CommanderError, Option } from 'commander';
import { leakedKeysUrl, reportLeakedKeys } from '../scan/report.ts';
import { distinctKeys, scanPaths } from '../scan/scanner.ts';
import { InvalidRequestError } from '../shared/errors.ts';

type ScanOptions = { report?: string; json?: boolean; progress?: boolean };

/**
 * `airkey scan [PATH...]`: exit 0 when no key was found, 1 when one was (a pre-commit hook
 * blocks the commit), 2 on bad input. Prints `file:line: ask_…last4`, never a key.
 */
export function registerScan(program: Command): void {
  program
    .command('scan')
    .description('find airkey keys in files and folders (default .); exits 1 when it finds one')
    .argument('[paths...]', 'files and folders to scan')
    .option('--report <url>', "send the keys found to that airkey server's leaked-keys endpoint")
    .option('--progress', 'report progress on stderr (default: only when stderr is a terminal)')
    .addOption(new Option('--json', 'print machine-readable JSON'))
    // Exit 1 means "found a key", so a usage error (an unknown option…) must not look like one.
    .exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(2, error.code, error.message);
    })
    .action(async (paths: string[], options: ScanOptions) => scan(paths, options));
}

async function scan(paths: string[], options: ScanOptions): Promise<void> {
  const showProgress = options.progress ?? process.stderr.isTTY === true;
  let result;
  let reportUrl: URL | undefined;
  try {
    reportUrl = options.report === undefined ? undefined : leakedKeysUrl(options.report);
    result = await scanPaths(
      paths,
      showProgress ? { onProgress: (n) => process.stderr.write(`airkey scan: ${n} files scanned…\n`) } : {},
    );
  } catch (error) {
    if (error instanceof InvalidRequestError) throw new CommanderError(2, 'airkey.scan.invalid', error.message);
    throw error;
  }

  const keys = distinctKeys(result.findings);
  const send = async () => (reportUrl && keys.length > 0 ? reportLeakedKeys(reportUrl, keys) : undefined);
  if (options.json) {
    const report = await send();
    const findings = result.findings.map(({ file, line, hint }) => ({ file, line, hint }));
    const skipped = { binary: result.skipped.binary, too_large: result.skipped.tooLarge };
    process.stdout.write(
      `${JSON.stringify({ findings, files_scanned: result.filesScanned, skipped, ...(reportUrl ? { reported: report?.sent ?? 0 } : {}) })}\n`,
    );
  } else {
    // Findings first: they still show if the report then fails.
    for (const f of result.findings) process.stdout.write(`${f.file}:${f.line}: ${f.hint}\n`);
    const report = await send();
    if (report)
      process.stdout.write(`Reported ${report.sent} ${report.sent === 1 ? 'key' : 'keys'} to ${reportUrl!.origin}.\n`);
  }
  // Exit 1 with a one-line summary: what makes the verb usable as a pre-commit hook.
  if (result.findings.length > 0) {
    const n = result.findings.length;
    throw new CommanderError(
      1,
      'airkey.scan.found',
      `found ${n} airkey ${n === 1 ? 'key' : 'keys'} in ${result.filesScanned} files scanned; roll ${keys.length === 1 ? 'it' : 'them'}`,
    );
  }
}
