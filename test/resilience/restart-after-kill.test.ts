import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { processStat } from '../../src/db/data-dir-lock.ts';
import { freshDataDir } from '../support/databases.ts';
import { freePort } from '../support/free-port.ts';
import { waitFor } from '../support/wait-for.ts';
import { airkeyEnv, takeTurn } from '../scale/instances.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TRIES = 10;

type Group = { leader: ChildProcess; url: string; output: () => string };

/**
 * `airkey serve` under a shell, in a process group of its own, as a supervisor or a terminal
 * starts it. Killing the group kills the shell too, so the server's parent is gone and the server
 * lingers as a zombie until something reaps it: the window in which a restart used to be refused.
 */
function startGroup(dataDir: string, port: number): Group {
  const leader = spawn('/bin/sh', ['-c', 'node bin/airkey serve; exit $?'], {
    cwd: ROOT,
    env: airkeyEnv(undefined, { DATA_DIR: dataDir, PORT: String(port) }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  leader.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  leader.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return { leader, url: `http://127.0.0.1:${port}`, output: () => printed };
}

async function ready(group: Group, what: string): Promise<void> {
  await waitFor(
    async () => {
      if (group.leader.exitCode !== null) {
        throw new Error(`${what} exited (${group.leader.exitCode}) before it was ready:\n${group.output()}`);
      }
      return (await fetch(`${group.url}/readyz`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 60_000, what },
  );
}

function killGroup(group: Group): void {
  try {
    process.kill(-group.leader.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

describe.skipIf(process.platform === 'win32')('restart right after kill -9 of the process group (PGlite)', () => {
  const groups: Group[] = [];
  afterAll(() => groups.forEach(killGroup));

  it(`starts again at once, in each of ${TRIES} tries`, { timeout: TRIES * 70_000 }, async () => {
    const release = await takeTurn();
    try {
      const dataDir = freshDataDir();
      const port = await freePort();
      let lingering = 0;
      let group = startGroup(dataDir, port);
      groups.push(group);
      await ready(group, 'first start');
      for (let attempt = 1; attempt <= TRIES; attempt++) {
        const { pid } = JSON.parse(readFileSync(join(dataDir, 'airkey.lock'), 'utf8')) as { pid: number };
        killGroup(group);
        // Whether the old server was still there (as a zombie, or not yet dead) when the restart began.
        if (processStat(pid) !== undefined) lingering++;
        group = startGroup(dataDir, port);
        groups.push(group);
        await ready(group, `restart ${attempt}`);
        expect(group.output()).not.toMatch(/in use by/);
      }
      console.info(`restart after kill -9: ${TRIES} of ${TRIES} started; old server still present at ${lingering}`);
    } finally {
      await release();
    }
  });
});
