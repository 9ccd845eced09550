import { monotonicClock, type MonotonicClock } from '../shared/clock.ts';

/** Another instance whose lease was live after a change committed, and how long it may still hold. */
export type LiveInstance = { id: string; remainingMs: number };

/** What a writer's wait came to: how long it took and which instances it stopped waiting for. */
export type Confirmation = { waitedMs: number; confirmed: number; lapsed: string[]; cappedAt?: number };

// Changes whose acknowledgements are still collected; a rolled-back change is never delivered, so
// the oldest entries are dropped past this many.
const MAX_TRACKED = 1_024;

/**
 * Collects "instance X applied change C" messages and lets a writer wait until every live instance
 * has applied its changes, or has certainly stopped serving from its cache (its lease ran out).
 * Acknowledgements are recorded from the moment a change is sent, so one that arrives before the
 * writer has even read who is live still counts.
 */
export class Acknowledgements {
  private readonly heard = new Map<string, Set<string>>();
  private readonly waiters = new Set<() => void>();
  /** Deadlines and waits are intervals: measured on a clock that never jumps. */
  private readonly monotonic: MonotonicClock;
  constructor(monotonic: MonotonicClock = monotonicClock) {
    this.monotonic = monotonic;
  }

  /** Before the change is sent (inside its transaction). */
  track(changeId: string): void {
    this.heard.set(changeId, new Set());
    if (this.heard.size > MAX_TRACKED) this.heard.delete(this.heard.keys().next().value!);
  }

  /** An acknowledgement heard on the ack channel. */
  record(changeId: string, instanceId: string): void {
    const instances = this.heard.get(changeId);
    if (instances === undefined) return;
    instances.add(instanceId);
    for (const waiter of this.waiters) waiter();
  }

  /**
   * Resolves once each of `live` has acknowledged every one of `changeIds` or its `remainingMs`
   * have passed, and in any case after `capMs`. Stops tracking the changes.
   */
  async confirm(changeIds: readonly string[], live: readonly LiveInstance[], capMs: number): Promise<Confirmation> {
    const started = this.monotonic();
    const pending = new Map(live.map((instance) => [instance.id, started + Math.min(instance.remainingMs, capMs)]));
    const lapsed: string[] = [];
    const appliedAll = (instanceId: string) => changeIds.every((id) => this.heard.get(id)?.has(instanceId) ?? false);
    let cappedAt: number | undefined;
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        const now = this.monotonic();
        for (const [instanceId, deadline] of pending) {
          if (appliedAll(instanceId)) pending.delete(instanceId);
          else if (now >= deadline) {
            pending.delete(instanceId);
            lapsed.push(instanceId);
          }
        }
        clearTimeout(timer);
        if (pending.size === 0) {
          this.waiters.delete(settle);
          resolve();
          return;
        }
        const next = Math.min(...pending.values());
        timer = setTimeout(settle, Math.max(0, next - now) + 1);
      };
      this.waiters.add(settle);
      settle();
    });
    for (const id of changeIds) this.heard.delete(id);
    if (lapsed.length > 0 && live.some((instance) => instance.remainingMs > capMs)) cappedAt = capMs;
    return {
      waitedMs: this.monotonic() - started,
      confirmed: live.length - lapsed.length,
      lapsed,
      ...(cappedAt === undefined ? {} : { cappedAt }),
    };
  }
}
