import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/database.ts';
import type { KeyChange } from '../keys/key-cache.ts';

export const CHANGE_CHANNEL = 'airkey_changes';

type Published = KeyChange & { at: number };
export type ChangeListener = (change: KeyChange) => void;
export type FeedStateListener = (listening: boolean) => void;

/**
 * Carries every change that can affect a key check to every instance. A change is published with
 * `pg_notify` inside the transaction that makes it, so other instances hear it exactly when it
 * commits; this instance applies it synchronously right after commit, so its very next request
 * sees it without waiting for the round trip.
 */
export class ChangeFeed {
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

  /** Runs `work` in a transaction; what it publishes reaches other instances at commit. */
  async transaction<T>(db: Db, work: (tx: Db, publish: (change: KeyChange) => Promise<void>) => Promise<T>): Promise<T> {
    const published: KeyChange[] = [];
    const result = await db.transaction(async (tx) =>
      work(tx as unknown as Db, async (change) => {
        const message: Published = { ...change, at: this.now() };
        await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${JSON.stringify(message)})`);
        published.push(change);
      }),
    );
    for (const change of published) this.emit(change);
    return result;
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
