import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryBudgetStore, type BudgetStore } from '../../../src/limits/budget/budget-store.ts';
import { RateLimiter } from '../../../src/limits/budget/rate-limiter.ts';
import type { Allowance, RateLimiterOptions } from '../../../src/limits/budget/rate-limiter.ts';
import { QUOTA_PERIODS, quotaPeriodOf, RATE_LIMIT_WINDOWS } from '../../../src/shared/limit-terms.ts';
import { fixedWindowOf } from '../../../src/limits/budget/allowance.ts';
import { largestQuotaSlice } from '../../../src/limits/quota/quota.ts';

const KEY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const INSTANCES = 3;

type Op =
  | { kind: 'take'; instance: number; count: number }
  | { kind: 'crash'; instance: number }
  | { kind: 'forget'; instance: number }
  | { kind: 'step' }
  | { kind: 'tick'; ms: number };

const instance = fc.integer({ min: 0, max: INSTANCES - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('take' as const), instance, count: fc.integer({ min: 1, max: 8 }) }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant('crash' as const), instance }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('forget' as const), instance }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'step' as const }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 40_000 }) }), weight: 1 },
);

/** The two meters on leased budgets: rate limits (fixed windows) and quotas (calendar periods, capped slices). */
const METERS = [
  {
    what: 'rate limiters',
    windows: RATE_LIMIT_WINDOWS.slice(0, 2),
    options: {} satisfies Partial<RateLimiterOptions>,
    // Ticks cross a window now and then.
    tickMs: 40_000,
    start: '2026-11-22T12:00:00Z',
  },
  {
    what: 'quota meters',
    windows: QUOTA_PERIODS,
    options: {
      periodOf: quotaPeriodOf,
      maxSliceOf: largestQuotaSlice,
      leaseAfterLast: false,
    } satisfies Partial<RateLimiterOptions>,
    // Ticks cross midnight and the month's end (from the last hours of November) now and then.
    tickMs: 6 * 3_600_000,
    start: '2026-11-30T20:00:00Z',
  },
];

describe.each(METERS)('$what sharing one store, any interleaving', ({ windows, options, tickMs, start }) => {
  it('never accept more than the limit in a window, whatever the order of leases, requests and crashes', async () => {
    const tick = fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: tickMs }) });
    const ops = fc.array(fc.oneof({ arbitrary: op, weight: 12 }, { arbitrary: tick, weight: 1 }), {
      minLength: 1,
      maxLength: 80,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 600 }),
        fc.constantFrom(...windows),
        ops,
        async (s, requests, window, ops) => {
          const limit: Allowance = { requests, window };
          const periodOf = options.periodOf ?? fixedWindowOf;
          const clock = { now: Date.parse(start) };
          const inner = new MemoryBudgetStore();
          // The store's atomic step and its answer each happen when the scheduler says.
          const store: BudgetStore = {
            lease: async (request) => {
              await s.schedule(Promise.resolve(), 'lease reaches the store');
              return s.schedule(Promise.resolve(inner.lease(request)), 'answer reaches the instance');
            },
          };
          const make = () => new RateLimiter({ store, now: () => clock.now, ...options });
          const limiters = Array.from({ length: INSTANCES }, make);
          const accepted = new Map<number, number>();
          const count = (from: RateLimiter, window: number, ok: boolean) => {
            // A crashed instance answers nobody: what it decided afterwards never reached a client.
            if (ok && limiters.includes(from)) accepted.set(window, (accepted.get(window) ?? 0) + 1);
          };
          for (const next of ops) {
            const windowStart = periodOf(window, clock.now).start;
            if (next.kind === 'take') {
              const limiter = limiters[next.instance]!;
              for (let i = 0; i < next.count; i++)
                void Promise.resolve(limiter.take(KEY, limit)).then((d) => count(limiter, windowStart, d.ok));
            } else if (next.kind === 'crash') {
              limiters[next.instance] = make();
            } else if (next.kind === 'forget') {
              limiters[next.instance]!.forget(KEY);
            } else if (next.kind === 'step') {
              if (s.count() > 0) await s.waitOne();
            } else {
              // Every request of this window is answered before the clock moves on.
              await s.waitIdle();
              clock.now += next.ms;
            }
          }
          await s.waitIdle();
          for (const [, n] of accepted) expect(n).toBeLessThanOrEqual(requests);
        },
      ),
      { numRuns: 300 },
    );
  });
});
