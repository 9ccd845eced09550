import { afterEach, describe, expect, it, vi } from 'vitest';
import { WriteBehindLoop } from '../../../src/shared/write-behind.ts';

describe('the write-behind loop', () => {
  afterEach(() => vi.useRealTimers());

  it('never runs two flushes at once: the second starts when the first has finished', async () => {
    const events: string[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const loop = new WriteBehindLoop(1_000, async () => {
      const call = ++calls;
      events.push(`start ${call}`);
      if (call === 1) await first;
      events.push(`end ${call}`);
    });
    const a = loop.flush();
    const b = loop.flush();
    await Promise.resolve();
    expect(events).toEqual(['start 1']);
    release();
    await Promise.all([a, b]);
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('keeps flushing after a flush that threw, and hands the failure to its caller', async () => {
    let calls = 0;
    const loop = new WriteBehindLoop(1_000, () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('database away')) : Promise.resolve();
    });
    await expect(loop.flush()).rejects.toThrow('database away');
    await expect(loop.flush()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('flushes every interval once started, and once more on stop, then no more', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const loop = new WriteBehindLoop(1_000, () => Promise.resolve(void (calls += 1)));
    loop.start();
    await vi.advanceTimersByTimeAsync(3_500);
    expect(calls).toBe(3);
    await loop.stop();
    expect(calls).toBe(4);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(4);
  });
});
