import { afterEach, describe, expect, it, vi } from 'vitest';
import { FailureThrottle } from '../../../src/throttle/failure-throttle.ts';

/** A throttle of its own per test: rate-limiter-flexible's memory store is shared by key prefix. */
const throttle = (points: number, blockSeconds: number) =>
  new FailureThrottle({ points, windowSeconds: 60, blockSeconds, keyPrefix: `unit-throttle-${Math.random()}` });

describe('FailureThrottle: blocks it has seen', () => {
  afterEach(() => vi.useRealTimers());

  it('remembers a block from the store for as long as it lasts, per client', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = throttle(2, 30);
    for (let i = 0; i < 3; i++) await t.recordFailure('c');
    expect(t.knownBlockSeconds('c')).toBe(0); // not asked yet
    expect(await t.retryAfter('c')).toBe(30);
    expect(t.knownBlockSeconds('c')).toBe(30);
    expect(t.knownBlockSeconds('other')).toBe(0);
    vi.setSystemTime(Date.now() + 29_500);
    expect(t.knownBlockSeconds('c')).toBe(1);
    vi.setSystemTime(Date.now() + 600);
    expect(t.knownBlockSeconds('c')).toBe(0);
  });

  it('remembers a spent budget: tryTake refuses without spending more', async () => {
    const t = throttle(2, 60);
    expect([await t.tryTake('c'), await t.tryTake('c'), await t.tryTake('c')]).toEqual([true, true, false]);
    expect(t.knownBlockSeconds('c')).toBe(60);
    expect(await t.tryTake('c')).toBe(false);
  });

  it('never remembers a client that is not blocked', async () => {
    const t = throttle(2, 60);
    await t.recordFailure('c');
    expect(await t.retryAfter('c')).toBe(0);
    expect(t.knownBlockSeconds('c')).toBe(0);
  });

  it('forgets a block on reset', async () => {
    const t = throttle(1, 60);
    for (let i = 0; i < 2; i++) await t.recordFailure('c');
    expect(await t.retryAfter('c')).toBe(60);
    await t.reset('c');
    expect(t.knownBlockSeconds('c')).toBe(0);
    expect(await t.retryAfter('c')).toBe(0);
  });
});
