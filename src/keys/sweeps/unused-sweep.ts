import { setTimeout as wait } from 'node:timers/promises';
import type { AuditService } from '../../audit/audit-service.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { SYSTEM_ACTOR } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import { withCreatorEmails } from '../events/key-event-repository.ts';
import { keyEvent } from '../events/key-events.ts';
import { keyTarget } from '../key-view.ts';
import { claimUnusedNotices, disableMarkedUnused, markUnused, type IdleKey } from './unused-key-repository.ts';

const DAY_MS = 86_400_000;

export type UnusedKeySweepOptions = {
  uow: UnitOfWork;
  audit: AuditService;
  clock: Clock;
  intervalMs: number;
  /** USAGE_FLUSH_MS: how stale a key's stored last use may be (see the class comment). */
  usageFlushMs: number;
  /** How the sweep waits between marking and disabling (tests move their clock instead). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
  onError?: (error: unknown) => void;
};

/**
 * Every SWEEP_INTERVAL_MS: `api_key.unused` for keys within 7 days of their tenant's
 * `disable_unused_after_days`, and keys past it disabled with reason `unused` (docs/keys.md (Key policy)).
 *
 * A key's last use reaches the database through each instance's write-behind, up to
 * USAGE_FLUSH_MS late: a key used on another instance a moment ago may still look idle. So the
 * sweep disables in two steps. It first marks the keys that look idle with the idle-since instant
 * it saw, then waits `graceMs` (two flush intervals and a second) for every instance's pending
 * uses to be written, then disables only the marked keys whose idle-since has not moved. Each
 * step is one claiming statement, so with several instances each key is warned and disabled once;
 * a mark whose sweeper stopped is finished by the next sweep of any instance.
 */
export class UnusedKeySweep {
  readonly graceMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly stopping = new AbortController();

  private readonly options: UnusedKeySweepOptions;
  constructor(options: UnusedKeySweepOptions) {
    this.options = options;
    this.graceMs = 2 * options.usageFlushMs + 1_000;
  }

  start(): void {
    this.timer = setInterval(() => {
      // A pass waits out the grace: the next tick does not start another beside it.
      if (this.running) return;
      this.running = this.run()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => (this.running = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.stopping.abort();
  }

  /** One pass; returns how many keys it warned about, marked and disabled. */
  async run(): Promise<{ warned: number; marked: number; disabled: number }> {
    const warned = await this.warn();
    const marked = await this.options.uow.inTransaction((tx) => markUnused(tx, this.options.clock.now()));
    if (marked.length > 0) {
      const sleep = this.options.sleep ?? ((ms, signal) => wait(ms, undefined, { signal }));
      try {
        await sleep(this.graceMs, this.stopping.signal);
      } catch {
        return { warned, marked: marked.length, disabled: 0 }; // stopped: another sweep finishes the marks
      }
    }
    const disabled = await this.disable();
    return { warned, marked: marked.length, disabled };
  }

  private warn(): Promise<number> {
    const { uow, clock } = this.options;
    return uow.inTransaction(async (tx, _changed, emit) => {
      const now = clock.now();
      const found = await withCreatorEmails(tx, await claimUnusedNotices(tx, now));
      for (const key of found) {
        emit(keyEvent('api_key.unused', key, now.getTime(), SYSTEM_ACTOR, unusedDetail(key, now)));
      }
      return found.length;
    });
  }

  private disable(): Promise<number> {
    const { uow, clock, audit } = this.options;
    return uow.inTransaction(async (tx, changed, emit) => {
      const now = clock.now();
      const disabled = await withCreatorEmails(tx, await disableMarkedUnused(tx, now, this.graceMs));
      for (const key of disabled) {
        emit(keyEvent('api_key.disabled', key, now.getTime(), SYSTEM_ACTOR, { reason: 'unused' }));
        await audit.record(tx, key.tenantId, SYSTEM_ACTOR, 'api_key.disabled', keyTarget(key), {
          hint: key.hint,
          reason: 'unused',
          unused_since: key.idleSince.toISOString(),
          disable_unused_after_days: key.days,
        });
        // Refused from this commit on every instance, like any disable (docs/keys.md (Revocation)).
        changed({ type: 'key', id: key.id });
      }
      return disabled.length;
    });
  }
}

/** What `api_key.unused` says beside the key: since when it is idle, and when it will be disabled. */
function unusedDetail(key: IdleKey, now: Date) {
  const disablesAt = new Date(key.idleSince.getTime() + key.days * DAY_MS);
  return {
    unused_since: key.idleSince.toISOString(),
    disables_at: disablesAt.toISOString(),
    days_left: Math.ceil((disablesAt.getTime() - now.getTime()) / DAY_MS),
    disable_unused_after_days: key.days,
  };
}
