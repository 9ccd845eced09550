import { sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import type { LiveInstance } from './acknowledgements.ts';

/**
 * The change feed's statements: notifications on a channel, and the `instances` rows that hold
 * each instance's lease (the renewal itself is run by the listening connection: lease.ts).
 */
export class InstanceRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** In `tx`, a notification is delivered when it commits; outside one, at once. */
  async notify(channel: string, payload: string, tx: Db = this.db): Promise<void> {
    await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
  }

  /** Other instances whose lease may still hold, by the database's clock, `marginMs` added for drift. */
  async liveOthers(instanceId: string, marginMs: number): Promise<LiveInstance[]> {
    const result: unknown = await this.db.execute(sql`
      select id, (extract(epoch from (lease_until - now())) * 1000)::float8 + ${marginMs} as remaining_ms
      from instances
      where id <> ${instanceId} and lease_until > now() - ${marginMs} * interval '1 millisecond'`);
    const { rows } = result as { rows: Array<{ id: string; remaining_ms: number }> };
    return rows.map((row) => ({ id: row.id, remainingMs: Number(row.remaining_ms) }));
  }

  /** Crashed instances age out with their lease; their rows go after a day. */
  async pruneCrashed(): Promise<void> {
    await this.db.execute(sql`delete from instances where lease_until < now() - interval '1 day'`);
  }

  /** This instance leaves: writers stop waiting for it. */
  async deregister(instanceId: string): Promise<void> {
    await this.db.execute(sql`delete from instances where id = ${instanceId}`);
  }
}
