#!/usr/bin/env node
// `npm test`: type-check, build the back office if its sources changed, then every Vitest test,
// ending with one plain "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;
const exitOn = (status) => status !== 0 && process.exit(status);

exitOn(run('npx', ['tsc', '-p', '.']));
exitOn(run('node', ['scripts/build-web-if-needed.mjs']));

const report = 'test-results/vitest.json';
rmSync(report, { force: true });
const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)]);
if (existsSync(report)) {
  const { numPassedTests, numFailedTests, numPendingTests, numTotalTests } = JSON.parse(readFileSync(report, 'utf8'));
  if (numTotalTests === 0) {
    console.log('no tests ran');
    process.exit(1);
  }
  console.log(`\n${numPassedTests} passed, ${numFailedTests} failed${numPendingTests ? `, ${numPendingTests} skipped` : ''}`);
}
process.exit(status);
