import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestLogRepository } from '../../../src/request-log/request-log-repository.ts';
import { REQUEST_OUTCOMES } from '../../../src/request-log/request-log-schemas.ts';
import type { RequestRecord } from '../../../src/request-log/request-record.ts';
import { STORED_METHODS } from '../../../src/request-log/stored-codes.ts';
import { ENGINES, type Engine } from '../../support/databases.ts';
import { rowsOf } from '../../support/harness.ts';
import { recordFor } from '../../support/request-log-kit.ts';
import { useHarness } from '../../support/use.ts';
import { asRows } from '../../../src/request-log/request-columns.ts';

type Stored = Pick<
  RequestRecord,
  'keyName' | 'keyHint' | 'path' | 'route' | 'userAgent' | 'traceId' | 'mcpMethod' | 'mcpTool'
> & {
  id: string;
  at: string;
  address: string | null;
  durationMs: number;
};

/** Text a client chooses, as the hook passes it on (a NUL is already U+FFFD there), with the words and marks array literals give meaning to. */
const clientText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => !text.includes('\0')),
  fc.constantFrom(
    '',
    'NULL',
    'null',
    '"',
    '\\',
    '\\"',
    '{}',
    '{a,b}',
    ',',
    ' padded ',
    'tab\there',
    'line\nbreak',
    '日本語 ✈',
  ),
);
const optionalText = fc.option(clientText, { nil: null });

/** Each engine with the wires its driver takes: PGlite's sends text; `pg` binary too (the writer thread's). */
const CASES: [Engine, 'text' | 'binary'][] = ENGINES.flatMap((engine): [Engine, 'text' | 'binary'][] =>
  engine === 'postgres'
    ? [
        [engine, 'text'],
        [engine, 'binary'],
      ]
    : [[engine, 'text']],
);

/** What the request log stores is what the request held: every text byte for byte, the instant to the millisecond. */
describe.each(CASES)('request log values (%s, %s)', (engine, wire) => {
  const h = useHarness({ engine, now: '2026-11-22T12:00:00Z' });

  async function stored(keyId: string): Promise<Stored[]> {
    const { rows } = await rowsOf<Stored>(
      h,
      sql`select id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, key_name as "keyName",
        key_hint as "keyHint", path, route, host(address) as address, user_agent as "userAgent",
        duration_ms as "durationMs", trace_id as "traceId", mcp_method as "mcpMethod", mcp_tool as "mcpTool"
        from request_log_entries where key_id = ${keyId}::uuid order by at, id`,
    );
    return rows;
  }

  it('keeps every text a client chose as it was sent', async () => {
    const repository = new RequestLogRepository(h.services.database.db, wire);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            keyName: clientText,
            path: clientText,
            userAgent: optionalText,
            mcpMethod: optionalText,
            mcpTool: optionalText,
            traceId: fc.option(fc.stringMatching(/^[0-9a-f]{32}$/), { nil: null }),
            address: fc.constantFrom(null, '192.0.2.1', '2001:db8::1'),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        async (chosen) => {
          const keyId = randomUUID();
          const records = chosen.map((values, i) => ({
            ...recordFor(randomUUID(), h.clock.nowMs() + i, keyId),
            ...values,
          }));
          await repository.insert({ id: randomUUID(), rows: asRows(records) });
          const rows = await stored(keyId);
          expect(
            rows.map(({ keyName, path, userAgent, mcpMethod, mcpTool, traceId, address }) => ({
              keyName,
              path,
              userAgent,
              mcpMethod,
              mcpTool,
              traceId,
              address,
            })),
          ).toEqual(chosen);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('keeps the instant to the millisecond and the duration', async () => {
    const repository = new RequestLogRepository(h.services.database.db, wire);
    const keyId = randomUUID();
    const sent = [
      { at: '2026-11-22T11:59:59.999Z', durationMs: 0 },
      { at: '2026-11-22T12:00:00.000Z', durationMs: 0.01 },
      { at: '2026-11-22T12:00:00.001Z', durationMs: 12.34 },
      { at: '2026-11-22T23:59:59.999Z', durationMs: 1500.5 },
    ];
    const records = sent.map(({ at, durationMs }) => ({
      ...recordFor(randomUUID(), Date.parse(at), keyId),
      durationMs,
    }));
    await repository.insert({ id: randomUUID(), rows: asRows(records) });
    const rows = await stored(keyId);
    expect(rows.map((row) => ({ at: row.at, durationMs: row.durationMs }))).toEqual(sent);
  });

  it('keeps each method, outcome and credential, and an access token without a hint', async () => {
    const repository = new RequestLogRepository(h.services.database.db, wire);
    const tenantId = randomUUID();
    const records = STORED_METHODS.map((method, i) => ({
      ...recordFor(tenantId, h.clock.nowMs() - i),
      method,
      outcome: REQUEST_OUTCOMES[i % REQUEST_OUTCOMES.length]!,
      credential: i % 2 === 0 ? ('key' as const) : ('oauth' as const),
      keyHint: i % 2 === 0 ? `ask_…${i}` : null,
    }));
    await repository.insert({ id: randomUUID(), rows: asRows(records) });
    const entries = await repository.page(tenantId, {}, 200);
    expect(entries.map((e) => [e.method, e.outcome, e.credential, e.key.hint])).toEqual(
      records.map((r) => [r.method, r.outcome, r.credential, r.keyHint]),
    );
  });

  it('names an entry the hook gave no id with a new version-4 uuid, and keeps an id it was given', async () => {
    const repository = new RequestLogRepository(h.services.database.db, wire);
    const keyId = randomUUID();
    const given = recordFor(randomUUID(), h.clock.nowMs(), keyId);
    const drawn = Array.from({ length: 500 }, (_, i) => ({
      ...recordFor(randomUUID(), h.clock.nowMs() + 1 + i, keyId),
      id: null,
    }));
    await repository.insert({ id: randomUUID(), rows: asRows([given, ...drawn]) });
    const ids = (await stored(keyId)).map((row) => row.id);
    expect(ids[0]).toBe(given.id);
    expect(new Set(ids).size).toBe(501);
    for (const id of ids.slice(1))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
