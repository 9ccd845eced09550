import { setTimeout as sleep } from 'node:timers/promises';

export type WaitOptions = { timeoutMs: number; everyMs?: number; what?: string };

/**
 * Polls `condition` until it holds, failing once `timeoutMs` has passed: tests wait for what they
 * need, never for a guessed number of milliseconds. A condition that throws fails at once.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs, everyMs = 20, what = 'the condition' }: WaitOptions,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
