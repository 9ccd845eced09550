#!/usr/bin/env node
// Builds the back office (web/ → web/dist) when it is missing or older than its sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
};

const output = 'web/dist/index.html';
const sources = ['web/src', 'web/index.html', 'src/contracts.ts', 'vite.config.ts', 'package-lock.json'].filter(
  existsSync,
);
if (!existsSync('web/index.html')) process.exit(0);
if (existsSync(output) && statSync(output).mtimeMs >= Math.max(...sources.map(newest))) process.exit(0);
console.log('Building the back office (web/ → web/dist)…');
const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
