import { sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { arrayLiteral } from '../db/array-literal.ts';

/** A claimed delivery with what sending it takes. `body` is the event as stored (jsonb). */
export type ClaimedDelivery = {
  id: string;
  webhookId: string;
  url: string;
  body: { type: string; timestamp: string; data: unknown };
  attemptsSoFar: number;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
};

export type Attempt = { at: string; status_code: number | null; error: string | null; duration_ms: number };

type ClaimedRow = {
  id: string;
  webhook_id: string;
  url: string;
  body: ClaimedDelivery['body'];
  attempts_so_far: number;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: string | Date | null;
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The only place that knows how deliveries are stored and claimed. */
export class DeliveryRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints, skipping endpoints in `busy`, until
   * `until`. One statement, so one short transaction: `for update skip locked` lets several
   * instances claim at once without waiting on or taking each other's rows, and the claim (not a
   * held lock) keeps others away while the attempt runs, so a crashed claimer's claim simply lapses.
   */
  async claim(now: Date, until: Date, limit: number, busy: readonly string[]): Promise<ClaimedDelivery[]> {
    const result = await this.db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
         where d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz and w.enabled
           and (d.claimed_until is null or d.claimed_until <= ${now.toISOString()}::timestamptz)
           and not (d.webhook_id = any(${arrayLiteral(busy)}::uuid[]))
         order by d.next_attempt_at
         limit ${limit}
         for update of d skip locked),
      claimed as (
        update webhook_deliveries d set claimed_until = ${until.toISOString()}::timestamptz
          from due where d.id = due.id
        returning d.id, d.webhook_id, d.event_id, jsonb_array_length(d.attempts) as attempts_so_far)
      select c.id, c.webhook_id, w.url, e.body, c.attempts_so_far, w.secret_sealed, w.previous_secret_sealed,
             w.previous_secret_until
        from claimed c join webhooks w on w.id = c.webhook_id join webhook_events e on e.id = c.event_id`);
    return rowsOf<ClaimedRow>(result).map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      url: row.url,
      body: row.body,
      attemptsSoFar: Number(row.attempts_so_far),
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretUntil: row.previous_secret_until === null ? null : new Date(row.previous_secret_until),
    }));
  }

  /** Gives claims back unused (this instance has no room for them right now). */
  async release(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.execute(
      sql`update webhook_deliveries set claimed_until = null where id = any(${arrayLiteral(ids)}::uuid[])`,
    );
  }

  /** Appends the attempt; `next` null ends the delivery as `status`. */
  async recordAttempt(id: string, attempt: Attempt, status: 'pending' | 'delivered' | 'failed', next: Date | null) {
    await this.db.execute(sql`
      update webhook_deliveries
         set attempts = attempts || ${JSON.stringify([attempt])}::jsonb, status = ${status},
             next_attempt_at = ${next?.toISOString() ?? null}::timestamptz, claimed_until = null
       where id = ${id}`);
  }

  /** The endpoint answered 410: it is disabled as `gone` and none of its pending deliveries is tried again. */
  async disableGone(webhookId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`update webhooks set enabled = false, disabled_reason = 'gone' where id = ${webhookId}`);
      await tx.execute(sql`
        update webhook_deliveries set status = 'failed', next_attempt_at = null
         where webhook_id = ${webhookId} and status = 'pending'`);
    });
  }

  /** Deliveries (and events) are kept 30 days. */
  async prune(before: Date): Promise<void> {
    await this.db.execute(sql`delete from webhook_deliveries where created_at < ${before.toISOString()}::timestamptz`);
    await this.db.execute(sql`delete from webhook_events where created_at < ${before.toISOString()}::timestamptz`);
  }
}
