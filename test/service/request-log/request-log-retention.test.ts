import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../../support/databases.ts';
import { logRowsOf, type Harness } from '../../support/harness.ts';
import { recordFor } from '../../support/request-log-kit.ts';
import { useHarness } from '../../support/use.ts';

const DAY_MS = 86_400_000;

async function partitions(h: Harness): Promise<string[]> {
  const { rows } = await logRowsOf<{ name: string }>(
    h,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        join pg_class p on p.oid = i.inhparent where p.relname in ('request_log', 'request_log_blocks') order by 1`,
  );
  return rows.map((r) => r.name);
}

async function daysOf(h: Harness, keyId: string): Promise<string[]> {
  const { rows } = await logRowsOf<{ day: string }>(
    h,
    sql`select distinct to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day from request_log_entries
        where key_id = ${keyId}::uuid order by 1`,
  );
  return rows.map((r) => r.day);
}

/** Retention by whole days (docs/request-log.md (Retention)): a day past REQUEST_LOG_DAYS goes as one partition. */
describe.each(ENGINES)('request log retention (%s)', (engine) => {
  const h = useHarness({ engine, now: '2026-11-20T12:00:00Z', config: { requestLogDays: 2 } });

  it('creates days ahead at start and drops a day older than REQUEST_LOG_DAYS while writes continue', async () => {
    expect(await partitions(h)).toEqual([
      'request_log_blocks_default',
      'request_log_blocks_p20261119',
      'request_log_blocks_p20261120',
      'request_log_blocks_p20261121',
      'request_log_blocks_p20261122',
      'request_log_blocks_p20261123',
      'request_log_default',
      'request_log_p20261119',
      'request_log_p20261120',
      'request_log_p20261121',
      'request_log_p20261122',
      'request_log_p20261123',
    ]);
    const writer = h.services.requestLog.writer!;
    const keyId = randomUUID();
    const tenantId = randomUUID();
    for (let day = 0; day < 3; day++) writer.record(recordFor(tenantId, h.clock.nowMs() + day * DAY_MS, keyId));
    await writer.flush();
    expect(await daysOf(h, keyId)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);

    // Three days on: the 20th is wholly older than two days. Writes go on throughout the drop.
    h.clock.advance(3 * DAY_MS);
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        writer.record(recordFor(tenantId, h.clock.nowMs(), keyId));
        await writer.flush();
        written += 1;
      }
    })();
    const dropped = await h.services.requestLog.maintain();
    writing = false;
    await writes;
    expect(dropped).toEqual([
      'request_log_blocks_p20261119',
      'request_log_blocks_p20261120',
      'request_log_p20261119',
      'request_log_p20261120',
    ]);
    expect(writer.pending).toBe(0);
    expect(written).toBeGreaterThan(0);
    expect(await daysOf(h, keyId)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    expect(await partitions(h)).toContain('request_log_blocks_p20261126');
    expect(await partitions(h)).toContain('request_log_p20261126');
  });
});
