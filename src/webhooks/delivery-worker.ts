import type { Dispatcher } from 'undici';
import type { Db } from '../db/handle.ts';
import { systemClock, type Clock } from '../shared/clock.ts';
import { DeliveryRepository, type ClaimedDelivery } from './delivery-repository.ts';
import { sendOnce } from './delivery-sender.ts';
import { safeAgent, type Resolver } from './safe-agent.ts';
import type { SecretBox } from './secret-box.ts';

const DAY_MS = 86_400_000;
const KEPT_MS = 30 * DAY_MS;
const PRUNE_EVERY_MS = 3_600_000;

export type DeliveryWorkerOptions = {
  db: Db;
  secrets: SecretBox;
  /** The waits before each retry (WEBHOOK_RETRY_SCHEDULE); after the last, the delivery has failed. */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  allowPrivate: boolean;
  /** Attempts in flight on this instance, over all endpoints. */
  concurrency?: number;
  /** Attempts in flight to one endpoint: a slow one never holds more, so others keep going. */
  perEndpoint?: number;
  /** How often other instances' deliveries and due retries are looked for without a poke. */
  pollMs?: number;
  resolver?: Resolver;
  dispatcher?: Dispatcher;
  /** What a stored business instant is judged by (the services' clock): a rotated-out secret's 24 h. */
  clock: Clock;
  /**
   * The time deliveries are scheduled, claimed and signed in: a retry waits in real time (a timer
   * wakes the worker), and a receiver checks the signature's timestamp against its own clock. The
   * system clock unless a test replaces it.
   */
  wallClock?: Clock;
  onError?: (error: unknown) => void;
};

/**
 * Sends the outbox (docs/webhooks.md): claims due deliveries, sends each once, records the attempt
 * and schedules the next. It runs beside the server, never on a request's path; a poke after a
 * commit starts it at once, a poll catches retries and other instances' leftovers (lapsed claims).
 */
export class DeliveryWorker {
  private readonly repository: DeliveryRepository;
  private readonly dispatcher: Dispatcher;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly inFlight = new Map<string, number>();
  private readonly sending = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private running = false;
  private again = false;
  private poll: NodeJS.Timeout | undefined;
  private wake: NodeJS.Timeout | undefined;
  private wakeAt = Infinity;
  private soon: NodeJS.Timeout | undefined;
  private lastPrune = 0;

  private readonly options: DeliveryWorkerOptions;
  constructor(options: DeliveryWorkerOptions) {
    this.options = options;
    this.repository = new DeliveryRepository(options.db);
    this.dispatcher =
      options.dispatcher ??
      safeAgent({
        allowPrivate: options.allowPrivate,
        connectTimeoutMs: options.timeoutMs,
        resolver: options.resolver,
      });
    const wallClock = options.wallClock ?? systemClock;
    this.now = () => wallClock.nowMs();
    this.concurrency = options.concurrency ?? 32;
    this.perEndpoint = options.perEndpoint ?? 16;
  }

  start(): void {
    this.poll = setInterval(() => this.poke(), this.options.pollMs ?? 1_000);
    this.poll.unref();
    this.poke();
  }

  /** Look for due deliveries now (a commit queued some, or a user asked for a retry). */
  poke(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain().finally(() => (this.running = false));
  }

  /** After a send: sends finishing together share one claim instead of one each. */
  private pokeSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.poke();
    }, 5);
  }

  /** Stops claiming; attempts in flight are cut short and left to their claims' lapse (at least once). */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.poll);
    clearTimeout(this.wake);
    clearTimeout(this.soon);
    await Promise.allSettled([...this.sending]);
    // Stopping: sockets a receiver left hanging must not keep the process from ending.
    await this.dispatcher.close().catch(() => undefined);
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.pruneNow();
        await this.claimAndSend();
      } catch (error) {
        this.options.onError?.(error);
      }
    } while (this.again && !this.stopping.signal.aborted);
  }

  private async claimAndSend(): Promise<void> {
    const free = this.concurrency - this.sending.size;
    if (free <= 0) return;
    const busy = [...this.inFlight].filter(([, count]) => count >= this.perEndpoint).map(([id]) => id);
    const now = this.now();
    // Longer than any attempt can run, so a live claimer never loses its claim mid-attempt.
    const until = new Date(now + 2 * this.options.timeoutMs + 5_000);
    // No more than one endpoint's share at once: what one endpoint cannot take yet is not claimed
    // only to be given back, and the next round (skipping saturated endpoints) serves the others.
    const claimed = await this.repository.claim(new Date(now), until, Math.min(free, this.perEndpoint), busy);
    const excess: string[] = [];
    for (const delivery of claimed) {
      const count = this.inFlight.get(delivery.webhookId) ?? 0;
      if (count >= this.perEndpoint) {
        excess.push(delivery.id);
        continue;
      }
      this.inFlight.set(delivery.webhookId, count + 1);
      const sent = this.attempt(delivery).finally(() => {
        this.sending.delete(sent);
        const left = (this.inFlight.get(delivery.webhookId) ?? 1) - 1;
        if (left > 0) this.inFlight.set(delivery.webhookId, left);
        else this.inFlight.delete(delivery.webhookId);
        this.pokeSoon();
      });
      this.sending.add(sent);
    }
    // Claimed beyond one endpoint's share: given back, and the next round skips that endpoint.
    await this.repository.release(excess);
    if (excess.length > 0) this.again = true;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    try {
      const body = JSON.stringify({
        type: delivery.body.type,
        timestamp: delivery.body.timestamp,
        data: delivery.body.data,
      });
      const sent = await sendOnce(
        { deliveryId: delivery.id, url: delivery.url, body, secrets: this.signingSecrets(delivery) },
        { dispatcher: this.dispatcher, timeoutMs: this.options.timeoutMs, now: this.now, signal: this.stopping.signal },
      );
      // Cut short by stop(): whether it arrived is unknown, so the claim lapses and it is sent again.
      if (this.stopping.signal.aborted && !sent.delivered) return;
      if (sent.delivered) return await this.repository.recordAttempt(delivery.id, sent.attempt, 'delivered', null);
      const wait = this.options.retryScheduleMs[delivery.attemptsSoFar];
      if (sent.gone || wait === undefined) {
        await this.repository.recordAttempt(delivery.id, sent.attempt, 'failed', null);
        if (sent.gone) await this.repository.disableGone(delivery.webhookId);
        return;
      }
      const next = this.now() + wait;
      await this.repository.recordAttempt(delivery.id, sent.attempt, 'pending', new Date(next));
      this.wakeUpAt(next);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** The current secret, and the one rotated out while it is still honoured. */
  private signingSecrets(delivery: ClaimedDelivery): string[] {
    const secrets = [this.options.secrets.open(delivery.secretSealed)];
    if (
      delivery.previousSecretSealed &&
      delivery.previousSecretUntil &&
      delivery.previousSecretUntil.getTime() > this.options.clock.nowMs()
    )
      secrets.push(this.options.secrets.open(delivery.previousSecretSealed));
    return secrets;
  }

  /** A retry due before the next poll is not left waiting for it. */
  private wakeUpAt(at: number): void {
    if (at >= this.wakeAt || this.stopping.signal.aborted) return;
    clearTimeout(this.wake);
    this.wakeAt = at;
    this.wake = setTimeout(
      () => {
        this.wakeAt = Infinity;
        this.poke();
      },
      Math.max(0, at - this.now()),
    );
    this.wake.unref();
  }

  private async pruneNow(): Promise<void> {
    const now = this.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.repository.prune(new Date(now - KEPT_MS));
  }
}
