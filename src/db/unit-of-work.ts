import type { EventRecord } from '../shared/event-types.ts';
import type { Db } from './handle.ts';

/**
 * What a write announces to the instances, opaque here: the room that carries changes declares
 * them into this interface (src/revocation/change.ts adds `KeyChange`), so storage names nothing
 * above it and services still record changes the compiler checks.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Changes {}
export type Change = Changes[keyof Changes];

/** How a committed change reaches the instances: the change feed implements it. */
export interface ChangeCarrier {
  /** Inside the transaction, so other instances hear the change exactly when it commits. */
  sendWithin(tx: Db, change: Change): Promise<void>;
  /** After commit, before the caller answers: this instance applies the change itself. */
  deliverCommitted(changes: readonly Change[]): Promise<void>;
}

/** Records what a unit of work changed; the unit of work publishes it. */
export type ChangeRecorder = (change: Change) => void;

/** Records an event a change caused (a webhook event); the unit of work writes it to the outbox. */
export type EventEmitter = (event: EventRecord) => void;

export type Work<T> = (tx: Db, changed: ChangeRecorder, emit: EventEmitter) => Promise<T>;

/**
 * Writes an event to the outbox inside the transaction of the change that caused it; returns the
 * deliveries it queued. The webhooks feature implements it (src/webhooks/outbox.ts).
 */
export type EventOutbox = (tx: Db, event: EventRecord) => Promise<readonly string[]>;

export type UnitOfWorkOptions = {
  db: Db;
  carrier: ChangeCarrier;
  outbox: EventOutbox;
  /** After a commit that queued deliveries: the delivery worker looks for them now, not at its next poll. */
  onDeliveriesCommitted?: () => void;
};

/**
 * Where every write starts. `inTransaction` runs the work in one transaction; the changes the
 * work records are sent on the change feed inside that transaction (pg_notify is delivered at
 * commit, never for a rollback) and applied to this instance after commit, before the caller
 * can answer. The events it emits are written to the outbox in the same transaction, so an event
 * exists exactly when its change does, and survives a crash right after the answer. Services say
 * what changed; they never handle transactions, the feed or the outbox themselves.
 */
export class UnitOfWork {
  private readonly options: UnitOfWorkOptions;
  constructor(options: UnitOfWorkOptions) {
    this.options = options;
  }

  async inTransaction<T>(work: Work<T>): Promise<T> {
    const changes: Change[] = [];
    let deliveries = 0;
    const result = await this.options.db.transaction(async (transaction) => {
      // Drizzle types a transaction apart from its database; every query API we use is shared.
      const tx = transaction as unknown as Db;
      const events: EventRecord[] = [];
      const value = await work(
        tx,
        (change) => changes.push(change),
        (event) => events.push(event),
      );
      for (const event of events) deliveries += (await this.options.outbox(tx, event)).length;
      for (const change of changes) await this.options.carrier.sendWithin(tx, change);
      return value;
    });
    if (changes.length > 0) await this.options.carrier.deliverCommitted(changes);
    if (deliveries > 0) this.options.onDeliveriesCommitted?.();
    return result;
  }
}
