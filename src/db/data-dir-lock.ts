import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite must never be opened by two processes at once. Whoever opens the data directory holds
 * this lock file (with its pid); a lock whose process is gone is stale and taken over.
 */
export function acquireDataDirLock(dataDir: string, holder: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'airkey.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, holder }));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(path);
      if (owner && isAlive(owner.pid)) {
        throw new Error(`The data directory ${dataDir} is in use by ${owner.holder} (pid ${owner.pid}).`);
      }
      unlinkSync(path);
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}.`);
}

function readOwner(path: string): { pid: number; holder: string } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { pid: number; holder: string };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
