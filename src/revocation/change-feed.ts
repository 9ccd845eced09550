import { randomUUID } from 'node:crypto';
import type { Database, Db } from '../db/handle.ts';
import type { ChangeCarrier } from '../db/unit-of-work.ts';
import { monotonicClock, systemClock, type MonotonicClock } from '../shared/clock.ts';
import { Acknowledgements, type Confirmation, type LiveInstance } from './acknowledgements.ts';
import type { KeyChange } from './change.ts';
import { InstanceRepository } from './instance-repository.ts';
import { leaseTerms, leaseValidUntil, renewalQuery, type LeaseTerms } from './lease.ts';

export const CHANGE_CHANNEL = 'airkey_changes';
/** "<change id> <instance id>": that instance has applied that change. */
export const ACK_CHANNEL = 'airkey_acks';

type Published = KeyChange & { at: number; cid?: string; from?: string };
export type ChangeListener = (change: KeyChange) => void;
export type FeedStateListener = (listening: boolean) => void;
/** `performance.now()` until which this instance may answer from its cache. */
export type LeaseListener = (validUntil: number) => void;

export type ChangeFeedOptions = {
  database: Database;
  /** docs/keys.md (Revocation): the longest a write waits for the other instances. */
  revocationWaitMs: number;
  /** Wall clock (epoch ms), only for the lag between a commit elsewhere and its arrival here. */
  now?: () => number;
  /** A write's wait for the other instances is an interval: measured on this (default performance.now()). */
  monotonic?: MonotonicClock;
  /** Told when a write stopped waiting for an instance whose lease ran out instead. */
  onLapsed?: (confirmation: Confirmation) => void;
  /**
   * Told when an acknowledgement could not be sent (`send`: another instance's writer waits out
   * this instance's lease) or heard (`listen`: this writer waits out every lease). Either way no
   * revocation is missed, only slowed; without this the wait would go unexplained.
   */
  onAckFailed?: (error: unknown, stage: 'send' | 'listen') => void;
};

/**
 * Carries every change that can affect a key check to every instance, and hears theirs. The unit
 * of work (src/db/unit-of-work.ts) decides when: `sendWithin` inside the writing transaction
 * (`pg_notify`, delivered at commit), `deliverCommitted` right after commit, before the writer
 * answers. On PostgreSQL `deliverCommitted` also waits until every other instance with a live
 * lease has acknowledged the change, or until its lease has certainly run out (docs/keys.md (Revocation)).
 */
export class ChangeFeed implements ChangeCarrier {
  readonly instanceId = randomUUID();
  private readonly listeners = new Set<ChangeListener>();
  private readonly stateListeners = new Set<FeedStateListener>();
  private readonly leaseListeners = new Set<LeaseListener>();
  private readonly acks: Acknowledgements;
  private readonly monotonic: MonotonicClock;
  private readonly database: Database;
  private readonly instances: InstanceRepository;
  private readonly terms: LeaseTerms;
  private readonly ids = new WeakMap<KeyChange, string>();
  private stopListening: (() => Promise<void>) | undefined;
  private ackListener: Promise<void> | undefined;
  private serving = false;
  listening = false;
  /** Until when (performance.now()) this instance may use its cache: always on the embedded engine. */
  leaseValidUntil: number;
  /** Milliseconds between commit on another instance and arrival here, last seen. */
  lastLagMs = 0;
  /** The last write's wait for the other instances. */
  lastConfirmation: Confirmation | undefined;

  private readonly options: ChangeFeedOptions;
  constructor(options: ChangeFeedOptions) {
    this.options = options;
    this.database = options.database;
    this.instances = new InstanceRepository(options.database.db);
    this.monotonic = options.monotonic ?? monotonicClock;
    this.acks = new Acknowledgements(this.monotonic);
    this.terms = leaseTerms(options.revocationWaitMs);
    this.leaseValidUntil = this.shared ? 0 : Number.POSITIVE_INFINITY;
  }

  /** Several processes write: PostgreSQL. The embedded PGlite belongs to this process alone. */
  private get shared(): boolean {
    return this.database.kind === 'postgres';
  }

  private now(): number {
    return this.options.now?.() ?? systemClock.nowMs();
  }

  onChange(listener: ChangeListener): void {
    this.listeners.add(listener);
  }

  onState(listener: FeedStateListener): void {
    this.stateListeners.add(listener);
  }

  onLease(listener: LeaseListener): void {
    this.leaseListeners.add(listener);
    listener(this.leaseValidUntil);
  }

  /** Inside the writing transaction: other instances hear the change exactly when it commits. */
  async sendWithin(tx: Db, change: KeyChange): Promise<void> {
    const message: Published = { ...change, at: this.now() };
    if (this.shared) {
      // Acknowledgements must be heard from the moment of commit; a writer that is not a serving
      // instance (the CLI) subscribes on its first change.
      await this.listenForAcks();
      const cid = this.ids.get(change) ?? randomUUID();
      this.ids.set(change, cid);
      this.acks.track(cid);
      Object.assign(message, { cid, from: this.instanceId });
    }
    await this.instances.notify(CHANGE_CHANNEL, JSON.stringify(message), tx);
  }

  /** After commit: this instance applies its changes, then waits for the others (docs/keys.md (Revocation)). */
  async deliverCommitted(changes: readonly KeyChange[]): Promise<void> {
    for (const change of changes) this.emit(change);
    if (!this.shared) return;
    const started = this.monotonic();
    const ids = changes.map((change) => this.ids.get(change)).filter((id): id is string => id !== undefined);
    let live: LiveInstance[];
    try {
      live = await this.instances.liveOthers(this.instanceId, this.terms.marginMs);
    } catch {
      // Who is live cannot be read: assume anyone might be, and wait as long as a lease can last.
      live = [{ id: 'unknown', remainingMs: this.terms.lengthMs + this.terms.marginMs }];
    }
    const capMs = Math.max(0, this.options.revocationWaitMs - (this.monotonic() - started));
    // Measured from commit: what this write's answer waited for the other instances.
    const confirmation = { ...(await this.acks.confirm(ids, live, capMs)), waitedMs: this.monotonic() - started };
    this.lastConfirmation = confirmation;
    if (confirmation.lapsed.length > 0) this.options.onLapsed?.(confirmation);
  }

  /** Subscribes to the other instances' changes and holds this instance's lease (PostgreSQL mode). */
  async start(): Promise<void> {
    if (!this.shared) {
      this.setState(true);
      return;
    }
    this.serving = true;
    // Pruning is housekeeping: a failure leaves rows the next start removes, and must not stop this one.
    await this.instances.pruneCrashed().catch(() => {});
    this.stopListening = await this.database.listen([CHANGE_CHANNEL, ACK_CHANNEL], {
      heartbeat: renewalQuery(this.instanceId, this.terms),
      onMessage: (payload, channel) => this.receive(payload, channel),
      onState: (listening) => this.setState(listening),
      onAlive: (sentAt) => this.setLease(leaseValidUntil(this.terms, sentAt)),
    });
    this.ackListener = Promise.resolve();
  }

  /** Stops serving from the cache, then deregisters: writers stop waiting for this instance. */
  async stop(): Promise<void> {
    if (this.shared) this.setLease(0);
    await this.stopListening?.();
    this.stopListening = undefined;
    if (this.serving) {
      this.serving = false;
      // Unreachable now, the row stays; its lease runs out and writers stop waiting for it anyway.
      await this.instances.deregister(this.instanceId).catch(() => {});
    }
  }

  private listenForAcks(): Promise<void> {
    this.ackListener ??= this.database
      .listen([ACK_CHANNEL], {
        name: 'airkey-writer',
        onMessage: (payload, channel) => this.receive(payload, channel),
        onState: () => {},
      })
      .then((stop) => {
        this.stopListening = stop;
      })
      .catch((error: unknown) => {
        // Without acknowledgements a write waits for the leases instead; try again next time.
        this.ackListener = undefined;
        this.options.onAckFailed?.(error, 'listen');
      });
    return this.ackListener;
  }

  private setState(listening: boolean): void {
    this.listening = listening;
    for (const listener of this.stateListeners) listener(listening);
  }

  private setLease(validUntil: number): void {
    this.leaseValidUntil = validUntil;
    for (const listener of this.leaseListeners) listener(validUntil);
  }

  private receive(payload: string, channel: string): void {
    if (channel === ACK_CHANNEL) {
      const [changeId, instanceId] = payload.split(' ');
      if (changeId && instanceId) this.acks.record(changeId, instanceId);
      return;
    }
    let message: Published;
    try {
      message = JSON.parse(payload) as Published;
    } catch {
      // A payload we cannot read might have been anything: forget everything rather than guess.
      this.emit({ type: 'all' });
      return;
    }
    this.lastLagMs = Math.max(0, this.now() - message.at);
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- `at` is dropped: listeners get the change alone
    const { at, cid, from, ...change } = message;
    this.emit(change);
    // Applied (eviction is synchronous): tell the writer. Its own changes it applied itself.
    if (cid !== undefined && from !== this.instanceId && this.serving) {
      this.instances
        .notify(ACK_CHANNEL, `${cid} ${this.instanceId}`)
        .catch((error: unknown) => this.options.onAckFailed?.(error, 'send'));
    }
  }

  private emit(change: KeyChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
