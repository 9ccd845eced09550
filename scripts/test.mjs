#!/usr/bin/env node
// `npm test`: type-check, build the back office if its sources changed, then every Vitest test.
import { spawnSync } from 'node:child_process';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('npx', ['tsc', '-p', '.']);
run('node', ['scripts/build-web-if-needed.mjs']);
run('npx', ['vitest', 'run', ...process.argv.slice(2)]);
