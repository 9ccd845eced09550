import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryBudgetStore, type BudgetStore } from '../../src/ratelimit/budget-store.ts';
import { RateLimiter } from '../../src/ratelimit/rate-limiter.ts';
import { RATE_LIMIT_WINDOWS, WINDOW_SECONDS, type RateLimit } from '../../src/ratelimit/rate-limit.ts';

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

describe('rate limiters sharing one store, any interleaving', () => {
  it('never accept more than the limit in a window, whatever the order of leases, requests and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(...RATE_LIMIT_WINDOWS.slice(0, 2)),
        fc.array(op, { minLength: 1, maxLength: 80 }),
        async (s, requests, window, ops) => {
          const limit: RateLimit = { requests, window };
          const windowMs = WINDOW_SECONDS[window] * 1000;
          const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
          const inner = new MemoryBudgetStore();
          // The store's atomic step and its answer each happen when the scheduler says.
          const store: BudgetStore = {
            lease: async (request) => {
              await s.schedule(Promise.resolve(), 'lease reaches the store');
              return s.schedule(Promise.resolve(inner.lease(request)), 'answer reaches the instance');
            },
          };
          const make = () => new RateLimiter({ store, now: () => clock.now });
          const limiters = Array.from({ length: INSTANCES }, make);
          const accepted = new Map<number, number>();
          const count = (from: RateLimiter, window: number, ok: boolean) => {
            // A crashed instance answers nobody: what it decided afterwards never reached a client.
            if (ok && limiters.includes(from)) accepted.set(window, (accepted.get(window) ?? 0) + 1);
          };
          for (const next of ops) {
            const windowStart = Math.floor(clock.now / windowMs) * windowMs;
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
