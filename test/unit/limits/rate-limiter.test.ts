import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryBudgetStore, type BudgetStore, type LeaseRequest } from '../../../src/limits/budget/budget-store.ts';
import { RateLimiter, type RateDecision } from '../../../src/limits/budget/rate-limiter.ts';
import type { RateLimit } from '../../../src/shared/limit-terms.ts';

const KEY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const MINUTE_START = Date.parse('2026-11-22T12:00:00Z');
const PER_MINUTE: RateLimit = { requests: 100, window: '1m' };

/** A limiter on a shared in-process store with a clock the test moves. */
function limiterOn(store: BudgetStore, clock = { now: MINUTE_START }) {
  return { clock, limiter: new RateLimiter({ store, now: () => clock.now }) };
}

function decided(decision: RateDecision | Promise<RateDecision>): RateDecision {
  if (decision instanceof Promise) throw new Error('expected a synchronous decision');
  return decision;
}

describe('rate limiter on the in-process store', () => {
  it('accepts exactly the limit in a window, synchronously, and refuses the rest', () => {
    const { limiter } = limiterOn(new MemoryBudgetStore());
    const decisions = Array.from({ length: 130 }, () => decided(limiter.take(KEY, PER_MINUTE)));
    expect(decisions.filter((d) => d.ok)).toHaveLength(100);
    expect(decisions.slice(0, 100).every((d) => d.ok)).toBe(true);
    expect(decisions[99]).toMatchObject({ ok: true, remaining: 0, limit: 100, windowSeconds: 60 });
    expect(decisions[100]).toMatchObject({ ok: false, remaining: 0, firstRefusalInWindow: true });
    expect(decisions[101]).toMatchObject({ ok: false, firstRefusalInWindow: false });
  });

  it('counts down the remaining requests and the seconds to the window end', () => {
    const { limiter, clock } = limiterOn(new MemoryBudgetStore());
    clock.now = MINUTE_START + 15_500;
    expect(decided(limiter.take(KEY, PER_MINUTE))).toMatchObject({ ok: true, remaining: 99, resetSeconds: 45 });
    expect(decided(limiter.take(KEY, PER_MINUTE))).toMatchObject({ ok: true, remaining: 98 });
    clock.now = MINUTE_START + 59_999;
    expect(decided(limiter.take(KEY, PER_MINUTE))).toMatchObject({ resetSeconds: 1 });
  });

  it('starts a fresh budget at the next window aligned to the UTC epoch', () => {
    const { limiter, clock } = limiterOn(new MemoryBudgetStore());
    clock.now = MINUTE_START + 59_000;
    for (let i = 0; i < 100; i++) decided(limiter.take(KEY, PER_MINUTE));
    expect(decided(limiter.take(KEY, PER_MINUTE)).ok).toBe(false);
    clock.now = MINUTE_START + 60_000;
    expect(decided(limiter.take(KEY, PER_MINUTE))).toMatchObject({ ok: true, remaining: 99, resetSeconds: 60 });
  });

  it('shares one window budget between instances on one store', () => {
    const store = new MemoryBudgetStore();
    const clock = { now: MINUTE_START };
    const a = limiterOn(store, clock).limiter;
    const b = limiterOn(store, clock).limiter;
    let accepted = 0;
    for (let i = 0; i < 300; i++) if (decided((i % 2 ? a : b).take(KEY, PER_MINUTE)).ok) accepted++;
    expect(accepted).toBe(100);
  });

  it('refuses a lowered limit at once after forget, counting what was already leased', () => {
    const { limiter } = limiterOn(new MemoryBudgetStore());
    for (let i = 0; i < 30; i++) decided(limiter.take(KEY, PER_MINUTE));
    limiter.forget(KEY);
    expect(decided(limiter.take(KEY, { requests: 20, window: '1m' })).ok).toBe(false);
  });

  it('keeps each key to its own budget', () => {
    const { limiter } = limiterOn(new MemoryBudgetStore());
    const one: RateLimit = { requests: 1, window: '1s' };
    expect(decided(limiter.take(KEY, one)).ok).toBe(true);
    expect(decided(limiter.take(KEY, one)).ok).toBe(false);
    expect(decided(limiter.take('another', one)).ok).toBe(true);
  });
});

describe('rate limiter on an asynchronous store', () => {
  /**
   * The in-process store behind a promise that answers on a later turn of the event loop, counting
   * leases; `fail` makes it throw; `settled()` waits for every lease asked so far.
   */
  function asyncStore() {
    const inner = new MemoryBudgetStore();
    const state = { leases: 0, fail: false };
    const asked: Promise<unknown>[] = [];
    const store: BudgetStore = {
      lease: (request: LeaseRequest) => {
        const answer = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          state.leases++;
          if (state.fail) throw new Error('store unreachable');
          return inner.lease(request);
        });
        asked.push(answer);
        return answer;
      },
    };
    const settled = async () => void (await Promise.allSettled(asked));
    return { store, state, settled };
  }

  afterEach(() => void vi.useRealTimers());

  it('makes concurrent first requests of a key share one lease', async () => {
    const { store, state } = asyncStore();
    const { limiter } = limiterOn(store);
    const decisions = await Promise.all(
      Array.from({ length: 10 }, () => Promise.resolve(limiter.take(KEY, PER_MINUTE))),
    );
    expect(decisions.every((d) => d.ok)).toBe(true);
    // The first slice (an eighth of 100: 13) covers all ten; a refill may have started after them.
    expect(state.leases).toBeLessThanOrEqual(2);
    expect(decided(limiter.take(KEY, PER_MINUTE)).ok).toBe(true);
  });

  it('spends only what it holds when the store goes away, then refuses and reports it', async () => {
    const { store, state, settled } = asyncStore();
    const errors: unknown[] = [];
    const clock = { now: MINUTE_START };
    const limiter = new RateLimiter({ store, now: () => clock.now, onError: (e) => errors.push(e) });
    expect((await limiter.take(KEY, PER_MINUTE)).ok).toBe(true);
    await settled(); // the refill the first request started has landed
    state.fail = true;
    let accepted = 1;
    for (let i = 0; i < 200; i++) if ((await limiter.take(KEY, PER_MINUTE)).ok) accepted++;
    expect(accepted).toBeLessThan(100);
    expect(accepted).toBeGreaterThan(1);
    expect(errors.length).toBeGreaterThan(0);
    // Back again after the pause: leases resume.
    state.fail = false;
    clock.now += 1_500;
    expect((await limiter.take(KEY, PER_MINUTE)).ok).toBe(true);
  });

  it('refuses within a second when the store does not answer at all, and refuses at once meanwhile', async () => {
    // The limiter's wait for the store is a timer: the test moves timers by hand instead of waiting.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors: unknown[] = [];
    const clock = { now: MINUTE_START };
    const silent: BudgetStore = { lease: () => new Promise(() => {}) };
    const limiter = new RateLimiter({ store: silent, now: () => clock.now, onError: (e) => errors.push(e) });
    const first = limiter.take(KEY, PER_MINUTE);
    expect(first).toBeInstanceOf(Promise);
    let answered: RateDecision | undefined;
    void Promise.resolve(first).then((decision) => (answered = decision));
    await vi.advanceTimersByTimeAsync(999);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    // Refused for want of the store, not over the limit: no "first refusal" to announce.
    expect(answered).toMatchObject({ ok: false, unavailable: true, remaining: 0, firstRefusalInWindow: false });
    expect(errors).toHaveLength(1);
    // Another key, without budget either, is refused without waiting while the store is presumed down.
    expect(decided(limiter.take('another', PER_MINUTE)).ok).toBe(false);
  });
});
