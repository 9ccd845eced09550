import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CopyStore } from '../../src/request-log/copy-store.ts';
import { isDataRejected } from '../../src/db/unavailable.ts';
import { rowsOf } from '../support/harness.ts';
import { recordFor } from '../support/request-log-kit.ts';
import { useHarness } from '../support/use.ts';

/** The writer thread's COPY (docs/request-log.md (Writing)): a batch is written once however often it is sent. */
describe('request log COPY store (postgres)', () => {
  const h = useHarness({ engine: 'postgres', now: '2026-11-22T12:00:00Z' });
  let pool: pg.Pool | undefined;
  const store = () => new CopyStore((pool ??= new pg.Pool({ connectionString: h.config.databaseUrl, max: 2 })));
  afterAll(async () => {
    await pool?.end();
  });
  const idsOf = async (keyId: string) =>
    (
      await rowsOf<{ id: string }>(h, sql`select id from request_log where key_id = ${keyId}::uuid order by at`)
    ).rows.map((row) => row.id);

  it('writes a batch sent twice (its commit unheard) exactly once, with every text as sent', async () => {
    const keyId = randomUUID();
    const records = Array.from({ length: 5 }, (_, i) => ({
      ...recordFor(randomUUID(), h.clock.nowMs() + i, keyId),
      userAgent: i === 0 ? 'tab\there, line\nbreak, back\\slash, \\N' : null,
    }));
    const batch = { id: randomUUID(), records };
    await store().insert(batch);
    await store().insert(batch);
    expect(await idsOf(keyId)).toEqual(records.map((r) => r.id));
    const { rows } = await rowsOf<{ user_agent: string | null }>(
      h,
      sql`select user_agent from request_log where id = ${records[0]!.id}::uuid`,
    );
    expect(rows[0]!.user_agent).toBe('tab\there, line\nbreak, back\\slash, \\N');
  });

  it('refuses a batch whose values the database rejects, as a permanent failure, and writes none of it', async () => {
    const keyId = randomUUID();
    const records = [
      recordFor(randomUUID(), h.clock.nowMs(), keyId),
      { ...recordFor(randomUUID(), 0, keyId), address: 'not an address' },
    ];
    const failure = await store()
      .insert({ id: randomUUID(), records })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isDataRejected(failure)).toBe(true);
    expect(await idsOf(keyId)).toEqual([]);
  });
});
