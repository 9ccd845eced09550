import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, processStat } from '../../../src/db/data-dir-lock.ts';
import { freshDataDir } from '../../support/databases.ts';

/** Who may take over a data directory's lock: only from a holder that can no longer hold files. */
describe.skipIf(process.platform !== 'linux')('data-directory lock', () => {
  // A real process that is alive for the whole file: its pid is a live pid the lock must judge.
  const other = spawn('sleep', ['60'], { stdio: 'ignore' });
  afterAll(() => other.kill('SIGKILL'));

  const lockWith = (owner: object) => {
    const dataDir = freshDataDir();
    writeFileSync(join(dataDir, 'airkey.lock'), JSON.stringify(owner));
    return dataDir;
  };
  const lockFile = (dataDir: string) => join(dataDir, 'airkey.lock');
  /** Who the lock file names now. */
  const ownerOf = (dataDir: string) => JSON.parse(readFileSync(lockFile(dataDir), 'utf8')) as object;

  /** This process holds the lock under `holder`; once released, the lock file is gone. */
  const expectHeldThenReleased = (dataDir: string, holder: string, release: () => void) => {
    expect(ownerOf(dataDir)).toMatchObject({ pid: process.pid, holder });
    release();
    expect(existsSync(lockFile(dataDir))).toBe(false);
  };

  it('takes over a lock whose pid now belongs to another program (another start time)', async () => {
    const dataDir = lockWith({ pid: other.pid, holder: 'airkey serve', startTime: '1' });
    expectHeldThenReleased(dataDir, 'test', await acquireDataDirLock(dataDir, 'test'));
  });

  it('refuses, after waiting for it to exit, a holder that is still the same running program', async () => {
    const startTime = processStat(other.pid!)!.startTime;
    const dataDir = lockWith({ pid: other.pid, holder: 'airkey serve', startTime });
    const started = performance.now();
    await expect(acquireDataDirLock(dataDir, 'test')).rejects.toThrow(`in use by airkey serve (pid ${other.pid})`);
    expect(performance.now() - started).toBeGreaterThan(4_000);
    expect(ownerOf(dataDir)).toEqual({ pid: other.pid, holder: 'airkey serve', startTime });
  }, 15_000);

  it('refuses a second lock in the same process at once', async () => {
    const dataDir = freshDataDir();
    const release = await acquireDataDirLock(dataDir, 'first');
    try {
      await expect(acquireDataDirLock(dataDir, 'second')).rejects.toThrow(`pid ${process.pid}`);
      expect(ownerOf(dataDir)).toMatchObject({ pid: process.pid, holder: 'first' });
    } finally {
      release();
    }
    expect(existsSync(lockFile(dataDir))).toBe(false);
  });

  it('takes over the lock of a holder that has exited', async () => {
    const gone = spawn('true');
    await new Promise((resolve) => gone.once('exit', resolve));
    const dataDir = lockWith({ pid: gone.pid, holder: 'airkey serve' });
    expectHeldThenReleased(dataDir, 'test', await acquireDataDirLock(dataDir, 'test'));
  });
});
