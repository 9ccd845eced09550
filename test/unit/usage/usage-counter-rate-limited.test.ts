import { collectInto, FAIL_ON_ERROR } from '../../support/run-reports.ts';
import { describe, expect, it } from 'vitest';
import { UsageCounter, type HourTally, type UsageSink } from '../../../src/usage/usage-counter.ts';

const KEY = 'key-1';
const TENANT = 'tenant-1';
const at = (iso: string) => new Date(iso).getTime();

/** A database stand-in that adds the three series like the real upsert, and can be made to fail. */
class AddingSink implements UsageSink {
  readonly rows = new Map<string, { ok: number; rejected: number; rateLimited: number }>();
  failing = false;
  async add(batch: readonly HourTally[]): Promise<void> {
    if (this.failing) throw new Error('database down');
    for (const t of batch) {
      const id = new Date(t.hourMs).toISOString();
      const row = this.rows.get(id) ?? { ok: 0, rejected: 0, rateLimited: 0 };
      this.rows.set(id, {
        ok: row.ok + t.ok,
        rejected: row.rejected + t.rejected,
        rateLimited: row.rateLimited + t.rateLimited,
      });
    }
    await Promise.resolve();
  }
}

describe('usage counter: requests refused over the rate limit', () => {
  it('moves a refused request from ok to rate_limited in the hour it was counted, even across the hour', async () => {
    const sink = new AddingSink();
    const counter = new UsageCounter(sink, 60_000, FAIL_ON_ERROR);
    counter.ok(KEY, TENANT, at('2026-11-22T12:59:59.999Z'));
    counter.rateLimited(KEY, TENANT, at('2026-11-22T13:00:00.001Z'));
    counter.ok(KEY, TENANT, at('2026-11-22T13:00:00.002Z'));
    await counter.flush();
    expect(Object.fromEntries(sink.rows)).toEqual({
      '2026-11-22T12:00:00.000Z': { ok: 0, rejected: 0, rateLimited: 1 },
      '2026-11-22T13:00:00.000Z': { ok: 1, rejected: 0, rateLimited: 0 },
    });
  });

  it('cancels an ok already flushed, and keeps rate_limited counts of a failed flush for the next', async () => {
    const sink = new AddingSink();
    const counter = new UsageCounter(sink, 60_000, collectInto([]));
    for (let i = 0; i < 3; i++) counter.ok(KEY, TENANT, at('2026-11-22T12:00:00Z'));
    await counter.flush();
    sink.failing = true;
    counter.rateLimited(KEY, TENANT, at('2026-11-22T12:00:01Z'));
    counter.rateLimited(KEY, TENANT, at('2026-11-22T12:00:02Z'));
    await counter.flush();
    sink.failing = false;
    await counter.flush();
    expect(sink.rows.get('2026-11-22T12:00:00.000Z')).toEqual({ ok: 1, rejected: 0, rateLimited: 2 });
  });
});
