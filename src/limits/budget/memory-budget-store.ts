import { sliceOf, type BudgetStore, type Lease, type LeaseRequest } from './lease.ts';

const SWEEP_EVERY_MS = 60_000;

/**
 * The embedded (PGlite) mode's store: one process serves every request, so the count lives in its
 * memory and a lease is synchronous. A restart forgets the counts of the current windows.
 */
export class MemoryBudgetStore implements BudgetStore {
  /** `key:windowMs:start` → leased so far and when the window ends. */
  private readonly windows = new Map<string, { used: number; endsAt: number }>();
  private nextSweep = 0;

  lease(request: LeaseRequest): Lease {
    this.sweep(request.now);
    const id = `${request.keyId}:${request.windowMs}:${request.windowStart}`;
    let window = this.windows.get(id);
    if (!window) {
      window = { used: 0, endsAt: request.windowStart + request.windowMs };
      this.windows.set(id, window);
    }
    const granted = sliceOf(request.limit - window.used, request.maxSlice);
    window.used += granted;
    return { granted, used: window.used };
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
  }
}
