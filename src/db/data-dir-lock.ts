import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { monotonicClock } from '../shared/clock.ts';

/** How long a holder that is still there may take to exit (a kill -9 in progress) before we refuse. */
const HOLDER_EXIT_WAIT_MS = 5_000;
const POLL_MS = 100;

type Owner = { pid: number; holder: string; startTime?: string };

/**
 * PGlite must never be opened by two processes at once. Whoever opens the data directory holds
 * this lock file (its pid and the process's start time); a lock whose process is gone is stale and
 * taken over. Gone includes a zombie (killed, not yet reaped: it holds no files any more) and a
 * pid the system has since given to another program (its start time differs).
 */
export async function acquireDataDirLock(dataDir: string, holder: string): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'airkey.lock');
  const deadline = monotonicClock() + HOLDER_EXIT_WAIT_MS;
  for (;;) {
    const release = tryCreate(path, holder);
    if (release) return release;
    const owner = readOwner(path);
    if (owner && holds(owner)) {
      // A holder being killed lingers for a moment: wait for it before refusing (not for ourselves).
      if (owner.pid === process.pid || monotonicClock() > deadline) {
        throw new Error(`The data directory ${dataDir} is in use by ${owner.holder} (pid ${owner.pid}).`);
      }
      await sleep(POLL_MS);
      continue;
    }
    try {
      unlinkSync(path);
    } catch (error) {
      // Another starter took the stale lock over first; the next try sees its lock.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** The release function when the lock file was created, undefined when it exists already. */
function tryCreate(path: string, holder: string): (() => void) | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  const owner: Owner = { pid: process.pid, holder, ...startTimeField(process.pid) };
  writeSync(fd, JSON.stringify(owner));
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
}

function startTimeField(pid: number): { startTime?: string } {
  const startTime = processStat(pid)?.startTime;
  return startTime === undefined ? {} : { startTime };
}

function readOwner(path: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Owner;
  } catch {
    // Unreadable or half written by a holder killed while writing it: nobody holds it.
    return undefined;
  }
}

/** Whether the recorded process still exists as the same program and can still hold files. */
function holds(owner: Owner): boolean {
  if (!exists(owner.pid)) return false;
  const stat = processStat(owner.pid);
  // No /proc (not Linux): existing is all we can know.
  if (!stat) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return owner.startTime === undefined || owner.startTime === stat.startTime;
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * State and start time (clock ticks since boot) from /proc/<pid>/stat (proc(5)). The command name
 * in parentheses may hold spaces and parentheses, so fields are counted from the last ')'.
 */
export function processStat(pid: number): { state: string; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After "pid (comm) ": field 3 (state) is index 0, field 22 (starttime) is index 19.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
}
