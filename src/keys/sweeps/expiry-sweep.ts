import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { SYSTEM_ACTOR } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import { withCreatorEmails } from '../events/key-event-repository.ts';
import { keyEvent } from '../events/key-events.ts';
import type { KeyService } from '../lifecycle/key-service.ts';
import { claimExpiringNotices } from './expiring-key-repository.ts';

type ExpirySweepOptions = {
  uow: UnitOfWork;
  keyService: Pick<KeyService, 'recordExpiries'>;
  clock: Clock;
  intervalMs: number;
  onError?: (error: unknown) => void;
};

/**
 * Every SWEEP_INTERVAL_MS: `api_key.expiring` for keys that came within 7 days or 1 day of their
 * expiry, and `api_key.expired` (with its audit event) for keys that expired. Each key's notices
 * are marked in the same statement that finds them, so with several instances each is sent once.
 */
export class ExpirySweep {
  private timer: NodeJS.Timeout | undefined;

  private readonly options: ExpirySweepOptions;
  constructor(options: ExpirySweepOptions) {
    this.options = options;
  }

  start(): void {
    this.timer = setInterval(() => {
      this.run().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass; returns how many expiring and expired events it found. */
  async run(): Promise<{ expiring: number; expired: number }> {
    const expiring = await this.announceExpiring();
    const expired = await this.options.keyService.recordExpiries();
    return { expiring, expired };
  }

  private announceExpiring(): Promise<number> {
    const { uow, clock } = this.options;
    return uow.inTransaction(async (tx, _changed, emit) => {
      const now = clock.now();
      const found = await withCreatorEmails(tx, await claimExpiringNotices(tx, now));
      for (const key of found) {
        emit(keyEvent('api_key.expiring', key, now.getTime(), SYSTEM_ACTOR, { days_left: key.expiringNoticeDays }));
      }
      return found.length;
    });
  }
}
