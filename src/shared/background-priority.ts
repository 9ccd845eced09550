import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The nice value of a background thread: below the request thread, never starved (Linux's weight is 110 of 1024). */
const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority, so that on a shared core the request thread
 * runs first and a background thread (the request log's writer) takes the time left over. On
 * Linux a nice value belongs to a thread, not to the process (setpriority(2)); elsewhere, or where
 * it is not permitted, the thread keeps its priority.
 */
export function runInBackground(): void {
  if (process.platform !== 'linux') return;
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (getPriority(thread) < BACKGROUND_NICE) setPriority(thread, BACKGROUND_NICE);
  } catch {
    // No /proc, or a sandbox that refuses: the same work at the same priority.
  }
}
