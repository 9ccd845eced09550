import { describe, expect, it } from 'vitest';
import { UsageCounter, type HourTally, type UsageSink } from '../../../src/usage/usage-counter.ts';
import { collectInto, FAIL_ON_ERROR } from '../../support/run-reports.ts';

const KEY = 'key-1';
const TENANT = 'tenant-1';
const at = (iso: string) => new Date(iso).getTime();

/** A database stand-in that adds like the real upsert, and can be made to fail. */
class AddingSink implements UsageSink {
  readonly rows = new Map<string, { ok: number; rejected: number }>();
  failing = false;
  add(batch: readonly HourTally[]): Promise<void> {
    if (this.failing) return Promise.reject(new Error('database down'));
    for (const t of batch) {
      const id = `${t.keyId} ${new Date(t.hourMs).toISOString()}`;
      const row = this.rows.get(id) ?? { ok: 0, rejected: 0 };
      this.rows.set(id, { ok: row.ok + t.ok, rejected: row.rejected + t.rejected });
    }
    return Promise.resolve();
  }
  get(hour: string) {
    return this.rows.get(`${KEY} ${hour}`);
  }
}

describe('usage counter', () => {
  it('counts ok and rejected per key and hour, and writes nothing until flushed', async () => {
    const sink = new AddingSink();
    const counter = new UsageCounter(sink, 60_000, FAIL_ON_ERROR);
    counter.ok(KEY, TENANT, at('2026-11-22T12:59:59.999Z'));
    counter.ok(KEY, TENANT, at('2026-11-22T13:00:00.000Z'));
    counter.rejected(KEY, TENANT, at('2026-11-22T13:30:00.000Z'));
    expect(sink.rows.size).toBe(0);
    await counter.flush();
    expect(sink.get('2026-11-22T12:00:00.000Z')).toEqual({ ok: 1, rejected: 0 });
    expect(sink.get('2026-11-22T13:00:00.000Z')).toEqual({ ok: 1, rejected: 1 });
  });

  it('keeps the counts of a failed flush for the next one, and adds them once', async () => {
    const sink = new AddingSink();
    const errors: unknown[] = [];
    const counter = new UsageCounter(sink, 60_000, collectInto(errors));
    for (let i = 0; i < 3; i++) counter.ok(KEY, TENANT, at('2026-11-22T12:00:00Z'));
    sink.failing = true;
    await counter.flush();
    expect(errors).toHaveLength(1);
    counter.ok(KEY, TENANT, at('2026-11-22T12:10:00Z'));
    sink.failing = false;
    await counter.flush();
    await counter.flush();
    expect(sink.get('2026-11-22T12:00:00.000Z')).toEqual({ ok: 4, rejected: 0 });
  });

  it('moves a denied request from ok to rejected in the hour it was counted, even across the hour', async () => {
    const sink = new AddingSink();
    const counter = new UsageCounter(sink, 60_000, FAIL_ON_ERROR);
    counter.ok(KEY, TENANT, at('2026-11-22T12:59:59.999Z'));
    counter.denied(KEY, TENANT, at('2026-11-22T13:00:00.001Z'));
    await counter.flush();
    expect(sink.get('2026-11-22T12:00:00.000Z')).toEqual({ ok: 0, rejected: 1 });
    expect(sink.get('2026-11-22T13:00:00.000Z')).toBeUndefined();
  });

  it('cancels an ok already flushed when its denial comes after the flush', async () => {
    const sink = new AddingSink();
    const counter = new UsageCounter(sink, 60_000, FAIL_ON_ERROR);
    counter.ok(KEY, TENANT, at('2026-11-22T12:00:00Z'));
    await counter.flush();
    counter.denied(KEY, TENANT, at('2026-11-22T12:00:00Z'));
    await counter.flush();
    expect(sink.get('2026-11-22T12:00:00.000Z')).toEqual({ ok: 0, rejected: 1 });
  });

  it('flushes what it holds when stopped', async () => {
    const sink = new AddingSink();
    const counter = new UsageCounter(sink, 60_000, FAIL_ON_ERROR);
    counter.start();
    counter.rejected(KEY, TENANT, at('2026-11-22T12:00:00Z'));
    await counter.stop();
    expect(sink.get('2026-11-22T12:00:00.000Z')).toEqual({ ok: 0, rejected: 1 });
  });
});
