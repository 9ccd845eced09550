// What a rate limit adds to an accepted request once the instance holds budget: ns per take()
// against the same loop without a limiter. Not part of `npm run bench`: run `node bench/rate-limit-micro.ts` (Node 24 or newer).
import { MemoryBudgetStore } from '../src/limits/budget/budget-store.ts';
import { RateLimiter, type RateDecision } from '../src/limits/budget/rate-limiter.ts';
import type { RateLimit } from '../src/shared/limit-terms.ts';

const CALLS = 5_000_000;
const ROUNDS = 7;
const KEYS = Array.from({ length: 16 }, (_, i) => `7c9e6679-7425-40de-944b-e07fc1f90a${String(i).padStart(2, '0')}`);
const LIMIT: RateLimit = { requests: 1_000_000_000, window: '1d' };

let sink = 0;

function noLimiter(): void {
  for (let i = 0; i < CALLS; i++) sink += KEYS[i & 15]!.length;
}

function withLimiter(limiter: RateLimiter): void {
  for (let i = 0; i < CALLS; i++) {
    const decision = limiter.take(KEYS[i & 15]!, LIMIT) as RateDecision;
    sink += KEYS[i & 15]!.length + (decision.ok ? 0 : 1);
  }
}

function nsPerCall(run: () => void): number {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / CALLS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// Lease the first slice of every key (synchronous on the in-process store), then time held budget only.
function limiterWith(now: () => number): RateLimiter {
  const limiter = new RateLimiter({ store: new MemoryBudgetStore(), now });
  // The in-process store answers at once, so each first take() is already decided.
  for (const key of KEYS) void limiter.take(key, LIMIT);
  return limiter;
}
const realClock = limiterWith(() => Date.now());
// The clock read is the larger part of a take(); a caller that already has the request's time pays less.
const started = Date.now();
const fixedClock = limiterWith(() => started);
const bare: number[] = [];
const limited: number[] = [];
const limitedFixed: number[] = [];
noLimiter();
withLimiter(realClock);
withLimiter(fixedClock);
for (let round = 0; round < ROUNDS; round++) {
  bare.push(nsPerCall(noLimiter));
  limited.push(nsPerCall(() => withLimiter(realClock)));
  limitedFixed.push(nsPerCall(() => withLimiter(fixedClock)));
}
const b = median(bare);
const l = median(limited);
const f = median(limitedFixed);
console.log(`node ${process.version}, ${CALLS.toLocaleString('en')} calls × ${ROUNDS} interleaved rounds, medians:`);
console.log(`  no limiter:               ${b.toFixed(1)} ns/call`);
console.log(`  take() on a held lease:   ${l.toFixed(1)} ns/call (${(l - b).toFixed(1)} ns added)`);
console.log(`  the same, clock not read: ${f.toFixed(1)} ns/call (${(f - b).toFixed(1)} ns added)`);
if (sink === 42) console.log('');
