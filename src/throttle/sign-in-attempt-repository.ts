import { sql } from 'drizzle-orm';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/handle.ts';
import type { Clock } from '../shared/clock.ts';

type Row = { count: number | string; window_start: Date | string };

/**
 * The store of a throttle on PostgreSQL (or PGlite) without Redis: `sign_in_attempts`, one row per
 * key and window, so every instance on the database shares the count. One statement takes a point:
 * the upsert locks the row, so two instances taking at once see each other's points; a window that
 * has ended starts over in the same statement. The subset of rate-limiter-flexible's limiter the
 * throttle uses, answering the same way (a refusal rejects with a `RateLimiterRes`).
 */
export class DatabaseLimiter {
  private readonly db: Db;
  private readonly points: number;
  private readonly windowMs: number;
  private readonly prefix: string;
  private readonly clock: Clock;
  private nextPrune = 0;
  constructor(options: { db: Db; points: number; windowSeconds: number; keyPrefix: string; clock: Clock }) {
    this.db = options.db;
    this.points = options.points;
    this.windowMs = options.windowSeconds * 1000;
    this.prefix = `${options.keyPrefix}:`;
    this.clock = options.clock;
  }

  async consume(key: string): Promise<RateLimiterRes> {
    this.prune();
    const now = this.clock.now().toISOString();
    const result = await this.db.execute<Row>(sql`
      insert into sign_in_attempts as a (key, window_start, count)
      values (${this.prefix + key}, ${now}::timestamptz, 1)
      on conflict (key) do update set
        count = case when a.window_start > ${now}::timestamptz - ${this.windowMs} * interval '1 millisecond'
          then a.count + 1 else 1 end,
        window_start = case when a.window_start > ${now}::timestamptz - ${this.windowMs} * interval '1 millisecond'
          then a.window_start else ${now}::timestamptz end
      returning count, window_start`);
    const outcome = this.outcomeOf(rowsOf(result)[0]!);
    // rate-limiter-flexible's own refusal: a result, not an Error, which the throttle tells from a fault.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (outcome.consumedPoints > this.points) throw outcome;
    return outcome;
  }

  async get(key: string): Promise<RateLimiterRes | null> {
    const result = await this.db.execute<Row>(sql`
      select count, window_start from sign_in_attempts
      where key = ${this.prefix + key}
        and window_start > ${this.clock.now().toISOString()}::timestamptz - ${this.windowMs} * interval '1 millisecond'`);
    const row = rowsOf(result)[0];
    return row ? this.outcomeOf(row) : null;
  }

  /** Gives back points taken in the current window (never below nothing). */
  async reward(key: string, points: number): Promise<void> {
    await this.db.execute(sql`
      update sign_in_attempts set count = greatest(count - ${points}::int, 0)
      where key = ${this.prefix + key}
        and window_start > ${this.clock.now().toISOString()}::timestamptz - ${this.windowMs} * interval '1 millisecond'`);
  }

  async delete(key: string): Promise<void> {
    await this.db.execute(sql`delete from sign_in_attempts where key = ${this.prefix + key}`);
  }

  /** Rows of windows that ended a while ago go, at most once a minute per throttle; a failure waits for the next. */
  private prune(): void {
    const now = this.clock.nowMs();
    if (now < this.nextPrune) return;
    this.nextPrune = now + 60_000;
    const before = new Date(now - this.windowMs - 60_000).toISOString();
    this.db
      .execute(
        sql`delete from sign_in_attempts where key like ${this.prefix + '%'} and window_start < ${before}::timestamptz`,
      )
      // A failed prune keeps old rows a minute longer; the next one removes them.
      .catch(() => {});
  }

  private outcomeOf(row: Row): RateLimiterRes {
    const count = Number(row.count);
    const ends = new Date(row.window_start).getTime() + this.windowMs;
    return new RateLimiterRes(
      Math.max(0, this.points - count),
      Math.max(0, ends - this.clock.nowMs()),
      count,
      count === 1,
    );
  }
}

function rowsOf(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
