import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import type { LogPosition } from '../../../src/request-log/log-rows.ts';
import { RequestLogRepository } from '../../../src/request-log/request-log-repository.ts';
import type { RequestLogEntry, RequestLogFilter } from '../../../src/request-log/request-log-schemas.ts';
import type { NamedRecord, RequestRecord } from '../../../src/request-log/request-record.ts';
import type { Engine } from '../../support/databases.ts';
import { recordFor } from '../../support/request-log-kit.ts';
import { insertRows } from '../../support/request-log-rows.ts';
import { useHarness } from '../../support/use.ts';
import { asRows } from '../../../src/request-log/request-columns.ts';

const ADDRESSES = ['198.51.100.7', '198.51.100.200', '198.51.101.9', '203.0.113.5', '2001:db8::1', '2001:db8:0:1::2'];
const RANGES = [
  '198.51.100.0/24',
  '198.51.100.7',
  '198.51.100.0/23',
  '198.51.0.0/16',
  '2001:db8::/48',
  '2001:db8::/32',
];
const STATUSES: Array<[number, RequestRecord['outcome']]> = [
  [200, 'ok'],
  [200, 'ok'],
  [429, 'rate_limited'],
  [401, 'rejected'],
  [404, 'not_found'],
];
const WINDOW_MS = 5 * 60_000;

/** Each engine with the wires its driver takes: PGlite's sends text; `pg` binary too (the writer thread's). */
const CASES: [Engine, 'text' | 'binary'][] = [
  ['pglite', 'text'],
  ['postgres', 'binary'],
];

/** What a page must hold: the tenant's entries that match, newest first by instant, then id. */
function expected(records: NamedRecord[], tenantId: string, filter: RequestLogFilter): string[] {
  const inRange = (address: string | null, range: string) => {
    if (address === null) return false;
    const parsed = ipaddr.parse(address);
    const [network, prefix] = range.includes('/')
      ? ipaddr.parseCIDR(range)
      : [ipaddr.parse(range), range.includes(':') ? 128 : 32];
    return parsed.kind() === network.kind() && parsed.match(network, prefix);
  };
  return records
    .filter(
      (r) =>
        r.tenantId === tenantId &&
        (filter.key === undefined || r.keyId === filter.key) &&
        (filter.outcome === undefined || r.outcome === filter.outcome) &&
        (filter.status === undefined || r.status === filter.status) &&
        (filter.route === undefined || r.route === filter.route) &&
        (filter.address === undefined || inRange(r.address, filter.address)) &&
        (filter.from === undefined || r.atMs >= Date.parse(filter.from)) &&
        (filter.to === undefined || r.atMs < Date.parse(filter.to)),
    )
    .sort((a, b) => b.atMs - a.atMs || (a.id < b.id ? 1 : -1))
    .map((r) => r.id);
}

/**
 * A page is exact however the entries lie in blocks (docs/request-log.md (Reading)): batches from
 * several instances overlap in time, a batch spans minutes after an outage, rows written before
 * the blocks sit beside them, and every filter's summary only narrows which blocks are read.
 */
describe.each(CASES)('request log pages (%s, %s)', (engine, wire) => {
  const h = useHarness({ engine, now: '2026-11-22T12:00:00Z' });

  it('pages through every matching entry once, newest first, under every filter', async () => {
    const repository = new RequestLogRepository(h.services.database.db, wire);
    const nowMs = h.clock.nowMs();
    const entry = (tenants: string[], keys: string[]) =>
      fc
        .record({
          tenant: fc.nat(tenants.length - 1),
          key: fc.nat(keys.length - 1),
          // Instants often equal, so the id decides the order.
          at: fc.oneof(fc.nat(WINDOW_MS), fc.constantFrom(0, 1, WINDOW_MS / 2)),
          status: fc.nat(STATUSES.length - 1),
          address: fc.option(fc.constantFrom(...ADDRESSES), { nil: null }),
          route: fc.constantFrom('/api/v1/whoami', '/api/v1/flights'),
        })
        .map((e): NamedRecord => ({
          ...recordFor(tenants[e.tenant]!, nowMs - WINDOW_MS + e.at, keys[e.key]),
          status: STATUSES[e.status]![0],
          outcome: STATUSES[e.status]![1],
          address: e.address,
          route: e.route,
        }));
    const filterOf = (keys: string[]) =>
      fc.oneof(
        fc.constant({}),
        fc.constantFrom(...keys).map((key) => ({ key })),
        fc.constantFrom('ok', 'rate_limited', 'rejected', 'error').map((outcome) => ({ outcome })),
        fc.constantFrom(200, 401, 429, 500).map((status) => ({ status })),
        fc.constant({ route: '/api/v1/flights' }),
        fc.constantFrom(...RANGES).map((address) => ({ address })),
        fc.tuple(fc.nat(WINDOW_MS), fc.nat(WINDOW_MS)).map(([a, b]) => ({
          from: new Date(nowMs - WINDOW_MS + Math.min(a, b)).toISOString(),
          to: new Date(nowMs - WINDOW_MS + Math.max(a, b)).toISOString(),
        })),
      );
    const tenants = [randomUUID(), randomUUID()];
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry(tenants, keys), { minLength: 1, maxLength: 240, size: 'max' }),
        fc.array(fc.nat(240), { maxLength: 8, size: 'max' }),
        fc.nat(30),
        filterOf(keys),
        fc.integer({ min: 1, max: 12 }),
        async (records, cuts, rows, filter, limit) => {
          // Fresh tenants each run; the first `rows` entries as an earlier version's rows, the rest in batches.
          const run = Object.fromEntries(tenants.map((t) => [t, randomUUID()]));
          const mine = records.map((r) => ({ ...r, tenantId: run[r.tenantId]! }));
          const asOldRows = mine.slice(0, rows);
          if (asOldRows.length > 0) await insertRows(h.services.database.db, asOldRows, wire);
          const rest = mine.slice(rows);
          const bounds = [0, ...cuts.filter((c) => c < rest.length).sort((a, b) => a - b), rest.length];
          for (let i = 1; i < bounds.length; i++) {
            const batch = rest.slice(bounds[i - 1], bounds[i]);
            if (batch.length > 0) await repository.insert({ id: randomUUID(), rows: asRows(batch) });
          }
          const tenantId = run[tenants[0]!]!;
          const read: string[] = [];
          let before: LogPosition | undefined;
          for (;;) {
            const page: RequestLogEntry[] = await repository.page(tenantId, filter, limit, before);
            read.push(...page.map((e) => e.id));
            if (page.length < limit) break;
            before = { at: page.at(-1)!.at, id: page.at(-1)!.id };
          }
          expect(read).toEqual(expected(mine, tenantId, filter));
        },
      ),
      // A failure prints its seed; shrinking rewrites the log hundreds of times, minutes a run.
      { numRuns: 40, endOnFailure: true },
    );
  });

  it("finds a rare filter's entries past the tenant's newest blocks, through the summaries' indexes", async () => {
    const repository = new RequestLogRepository(h.services.database.db, wire);
    const [tenantId, key, rare] = [randomUUID(), randomUUID(), randomUUID()];
    const nowMs = h.clock.nowMs();
    // 120 blocks (a batch each, a minute apart); the rare ones are the 3 oldest and the 40th newest.
    const rareAt = new Set([0, 1, 2, 80]);
    const records: NamedRecord[] = Array.from({ length: 120 }, (_, i) => ({
      ...recordFor(tenantId, nowMs - (120 - i) * 60_000, rareAt.has(i) ? rare : key),
      ...(rareAt.has(i) ? { status: 401, outcome: 'rejected' as const, address: '203.0.113.5' } : {}),
    }));
    for (const record of records) await repository.insert({ id: randomUUID(), rows: asRows([record]) });
    const newestFirst = records
      .filter((_, i) => rareAt.has(i))
      .reverse()
      .map((r) => r.id);
    for (const filter of [
      { key: rare },
      { status: 401 },
      { outcome: 'rejected' },
      { address: '203.0.113.0/24' },
    ] as const) {
      const first = await repository.page(tenantId, filter, 2);
      expect(first.map((e) => e.id)).toEqual(newestFirst.slice(0, 2));
      const rest = await repository.page(tenantId, filter, 10, { at: first[1]!.at, id: first[1]!.id });
      expect(rest.map((e) => e.id)).toEqual(newestFirst.slice(2));
    }
  });
});
