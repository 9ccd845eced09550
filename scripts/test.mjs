#!/usr/bin/env node
// `npm test` (on Node 24 or newer: package.json starts it through scripts/node-runtime.mjs): type-check, lint, build the back office if its sources changed, then every Vitest test,
// ending with one plain "N passed, N failed" line.
//
// The browser files and the scale suite (real server processes whose revoking responses are held to
// a p99 bound) run on their own after the rest, one file at a time, with no other test competing for
// the two cores.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { nodeBinary } from './node-runtime.mjs';

const run = (command, args, env = process.env) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;
const exitOn = (status) => status !== 0 && process.exit(status);

exitOn(run('npx', ['tsc', '-p', '.']));
// ESLint and `prettier --check`: a finding fails the run, yet the tests still run and report.
const lintStatus = run('npm', ['run', '--silent', 'lint']);
exitOn(run('node', ['scripts/build-web-if-needed.mjs']));

const extra = process.argv.slice(2);
const phases = extra.length
  ? [{ name: 'selected', args: extra }]
  : [
      { name: 'main', args: ['--exclude', 'test/scale/**', '--exclude', 'test/browser/**'] },
      // Each browser file starts a server and Chromium: one at a time, after the rest.
      { name: 'browser', args: ['test/browser', '--maxWorkers=1', '--no-file-parallelism'] },
      { name: 'scale', args: ['test/scale', '--maxWorkers=1', '--no-file-parallelism'] },
      // TEST_NODE26=1 (.ci/run sets it): again on the newest Node line, the suites whose outcome can
      // differ between Node lines: native and WebCrypto (sign-in, passkeys, OAuth, SSO), worker
      // threads (tracing, the request log), child processes (the first start, package, conformance),
      // MCP, and the contract's smoke, framework-error and revocation files. Everything runs on the
      // floor (24 LTS) above; the rest of test/http and test/cli is the same JavaScript on the same
      // engine APIs (docs/testing.md).
      ...(process.env.TEST_NODE26 === '1'
        ? [
            {
              name: 'node26',
              node: nodeBinary(26),
              args: [
                ...['test/cli/first-start.test.ts', 'test/mcp', 'test/standards', 'test/telemetry', 'test/package'],
                ...['test/http/oauth', 'test/http/sso', 'test/http/sign-in', 'test/http/request-log'],
                ...['test/http/smoke', 'test/http/framework-errors', 'test/http/isolation-and-revocation'],
              ],
            },
          ]
        : []),
    ];

const totals = { passed: 0, failed: 0, skipped: 0, total: 0 };
const failures = [];
let status = 0;
for (const phase of phases) {
  const report = `test-results/vitest-${phase.name}.json`;
  rmSync(report, { force: true });
  if (phase.node)
    console.log(`\n${phase.name}: ${spawnSync(phase.node, ['--version'], { encoding: 'utf8' }).stdout.trim()}`);
  const env = phase.node ? { ...process.env, PATH: `${dirname(phase.node)}:${process.env.PATH}` } : process.env;
  const code = run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...phase.args],
    env,
  );
  if (code !== 0) status = code;
  if (!existsSync(report)) continue;
  const result = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += result.numPassedTests;
  totals.failed += result.numFailedTests;
  totals.skipped += result.numPendingTests;
  totals.total += result.numTotalTests;
  for (const file of result.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed)
      failures.push(`${phase.name}: ${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}`);
    // A file that failed before its tests ran (an import, a hook) has no failed test to name.
    if (file.status === 'failed' && failed.length === 0)
      failures.push(`${phase.name}: ${file.name.replace(`${process.cwd()}/`, '')} (${file.message || 'failed'})`);
  }
}
if (totals.total === 0) {
  console.log('no tests ran');
  process.exit(1);
}
// Named again at the very end, so that a log's last lines say what failed.
if (failures.length) console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
if (lintStatus !== 0) console.log('\nlint failed: see the ESLint / Prettier findings above (npm run lint)');
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(status || lintStatus || (totals.failed > 0 ? 1 : 0));
