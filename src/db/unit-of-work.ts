import type { KeyChange } from '../bus/change.ts';
import type { Db } from './handle.ts';

/** How a committed change reaches the instances: the change feed implements it. */
export interface ChangeCarrier {
  /** Inside the transaction, so other instances hear the change exactly when it commits. */
  sendWithin(tx: Db, change: KeyChange): Promise<void>;
  /** After commit, before the caller answers: this instance applies the change itself. */
  deliverCommitted(changes: readonly KeyChange[]): Promise<void>;
}

/** Records what a unit of work changed; the unit of work publishes it. */
export type ChangeRecorder = (change: KeyChange) => void;

export type Work<T> = (tx: Db, changed: ChangeRecorder) => Promise<T>;

/**
 * Where every write starts. `inTransaction` runs the work in one transaction; the changes the
 * work records are sent on the change feed inside that transaction (pg_notify is delivered at
 * commit, never for a rollback) and applied to this instance after commit, before the caller
 * can answer. Services say what changed; they never handle transactions or the feed themselves.
 */
export class UnitOfWork {
  constructor(
    private readonly db: Db,
    private readonly carrier: ChangeCarrier,
  ) {}

  async inTransaction<T>(work: Work<T>): Promise<T> {
    const changes: KeyChange[] = [];
    const result = await this.db.transaction(async (transaction) => {
      // Drizzle types a transaction apart from its database; every query API we use is shared.
      const tx = transaction as unknown as Db;
      const value = await work(tx, (change) => changes.push(change));
      for (const change of changes) await this.carrier.sendWithin(tx, change);
      return value;
    });
    if (changes.length > 0) await this.carrier.deliverCommitted(changes);
    return result;
  }
}
