import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { processStat } from '../../src/db/data-dir-lock.ts';
import { migratedDataDir } from '../support/databases.ts';
import { waitFor } from '../support/wait-for.ts';
import { airkeyEnv, takeTurn } from '../support/instances.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TRIES = 10;

type Group = { parent: ChildProcess; output: () => string };

/** The address the server says it listens on: a port of its own, never one another test took meanwhile. */
const urlOf = (group: Group) => /airkey listening on (http:\/\/\S+)/.exec(group.output())?.[1];

/**
 * `airkey serve` as the leader of its own process group (setsid), under a parent that outlives it
 * and never reaps it: after kill -9 of the group the server stays a zombie, still "existing" for
 * kill(pid, 0). A lock that trusts kill(pid, 0) refuses a restart in that window ("in use by ...
 * pid N"); here the window lasts until the test ends, so every restart meets it.
 */
function startGroup(dataDir: string): Group {
  const parent = spawn('/bin/sh', ['-c', 'setsid node bin/airkey serve & exec sleep 600'], {
    cwd: ROOT,
    env: airkeyEnv(undefined, { DATA_DIR: dataDir, PORT: '0' }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  parent.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  parent.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  return { parent, output: () => printed };
}

async function ready(group: Group, what: string): Promise<void> {
  await waitFor(
    async () => {
      // The server's exit is not ours to see (the shell's sleep is its parent): its refusal is.
      const refused = /in use by[^\n]*/.exec(group.output());
      if (refused) throw new Error(`${what} refused: ${refused[0]}`);
      const url = urlOf(group);
      return url !== undefined && (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 60_000, what },
  );
}

/** The server's pid, as its lock file records it. */
function serverPid(dataDir: string): number {
  return (JSON.parse(readFileSync(join(dataDir, 'airkey.lock'), 'utf8')) as { pid: number }).pid;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

describe.skipIf(process.platform !== 'linux')('restart right after kill -9 of the process group (PGlite)', () => {
  const groups: Group[] = [];
  const dataDir = migratedDataDir();
  afterAll(() => {
    // The last server, still running (a server that stopped has removed its lock).
    if (existsSync(join(dataDir, 'airkey.lock'))) kill(serverPid(dataDir));
    // Their parents gone, the zombies are reaped by init.
    groups.forEach((group) => kill(group.parent.pid!));
  });

  it(
    `starts again at once, in each of ${TRIES} tries, while the killed server is a zombie`,
    { timeout: TRIES * 70_000 },
    async () => {
      const release = await takeTurn();
      try {
        let group = startGroup(dataDir);
        groups.push(group);
        await ready(group, 'first start');
        for (let attempt = 1; attempt <= TRIES; attempt++) {
          const pid = serverPid(dataDir);
          kill(-pid); // the whole process group the server leads
          await waitFor(() => processStat(pid)?.state === 'Z', { timeoutMs: 5_000, what: `pid ${pid} a zombie` });
          group = startGroup(dataDir);
          groups.push(group);
          await ready(group, `restart ${attempt}`);
          expect(serverPid(dataDir)).not.toBe(pid);
        }
      } finally {
        await release();
      }
    },
  );
});
