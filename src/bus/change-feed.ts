import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/handle.ts';
import type { ChangeCarrier } from '../db/unit-of-work.ts';
import type { KeyChange } from './change.ts';

export const CHANGE_CHANNEL = 'airkey_changes';

type Published = KeyChange & { at: number };
export type ChangeListener = (change: KeyChange) => void;
export type FeedStateListener = (listening: boolean) => void;

/**
 * Carries every change that can affect a key check to every instance, and hears theirs. The unit
 * of work (src/db/unit-of-work.ts) decides when: `sendWithin` inside the writing transaction
 * (`pg_notify`, delivered at commit), `deliverCommitted` to this instance right after commit.
 */
export class ChangeFeed implements ChangeCarrier {
  private readonly listeners = new Set<ChangeListener>();
  private readonly stateListeners = new Set<FeedStateListener>();
  private stopListening: (() => Promise<void>) | undefined;
  listening = false;
  /** Milliseconds between commit on another instance and arrival here, last seen. */
  lastLagMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  onChange(listener: ChangeListener): void {
    this.listeners.add(listener);
  }

  onState(listener: FeedStateListener): void {
    this.stateListeners.add(listener);
  }

  /** Inside the writing transaction: other instances hear the change exactly when it commits. */
  async sendWithin(tx: Db, change: KeyChange): Promise<void> {
    const message: Published = { ...change, at: this.now() };
    await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${JSON.stringify(message)})`);
  }

  /** After commit: this instance applies its own changes before the writer answers. */
  async deliverCommitted(changes: readonly KeyChange[]): Promise<void> {
    for (const change of changes) this.emit(change);
  }

  /** Subscribes to the other instances' changes (PostgreSQL mode). */
  async start(database: Database): Promise<void> {
    this.stopListening = await database.listen(CHANGE_CHANNEL, {
      onMessage: (payload) => this.receive(payload),
      onState: (listening) => {
        this.listening = listening;
        for (const listener of this.stateListeners) listener(listening);
      },
    });
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  private receive(payload: string): void {
    let message: Published;
    try {
      message = JSON.parse(payload) as Published;
    } catch {
      // A payload we cannot read might have been anything: forget everything rather than guess.
      this.emit({ type: 'all' });
      return;
    }
    this.lastLagMs = Math.max(0, this.now() - message.at);
    const { at: _at, ...change } = message;
    this.emit(change as KeyChange);
  }

  private emit(change: KeyChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
