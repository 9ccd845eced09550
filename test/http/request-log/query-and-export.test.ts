import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry, RequestLogPage } from '../../../src/request-log/request-log-schemas.ts';
import type { RequestRecord } from '../../../src/request-log/request-record.ts';
import type { Session } from '../../support/harness.ts';
import { ENGINES } from '../../support/databases.ts';
import { expectProblem } from '../../support/problems.ts';
import { useHarness } from '../../support/use.ts';

const T0 = Date.parse('2026-11-22T10:00:00Z');

/** The back office's reading of the log: filters, pages newest first, the NDJSON export (docs/request-log.md). */
describe.each(ENGINES)('request log query and export (%s)', (engine) => {
  const h = useHarness({ engine, now: '2026-11-22T12:00:00Z' });

  /** Eight requests a minute apart from two keys and four addresses, written as the hook would. */
  async function seeded(admin: Session): Promise<{ keyA: string; keyB: string }> {
    const [keyA, keyB] = [randomUUID(), randomUUID()];
    const addresses = ['198.51.100.7', '198.51.100.200', '203.0.113.9', '2001:db8::1'];
    for (let i = 0; i < 8; i++) {
      const record: RequestRecord = {
        id: randomUUID(),
        atMs: T0 + i * 60_000,
        tenantId: admin.tenantId,
        credential: 'key',
        keyId: i % 2 === 0 ? keyA : keyB,
        keyName: i % 2 === 0 ? 'a' : 'b',
        keyHint: 'ask_…abcd',
        method: 'GET',
        path: i < 4 ? '/api/v1/whoami' : `/api/v1/flights/${randomUUID()}`,
        route: i < 4 ? '/api/v1/whoami' : '/api/v1/flights/{id}',
        status: i === 5 ? 429 : 200,
        outcome: i === 5 ? 'rate_limited' : 'ok',
        address: addresses[i % 4]!,
        userAgent: 'probe',
        durationMs: 1.5,
        traceId: null,
        mcpMethod: null,
        mcpTool: null,
      };
      h.services.requestLog.writer!.record(record);
    }
    await h.services.requestLog.writer!.flush();
    return { keyA, keyB };
  }
  const list = async (admin: Session, query: string) => {
    const response = await admin.request('GET', `/backoffice/api/request-log?${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<RequestLogPage>();
  };
  const minutes = (page: { data: RequestLogEntry[] }) => page.data.map((e) => (Date.parse(e.at) - T0) / 60_000);

  it('filters by key, outcome, status, route, address range and time, newest first', async () => {
    const admin = await h.signedIn();
    const { keyA } = await seeded(admin);
    expect(minutes(await list(admin, ''))).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    expect(minutes(await list(admin, `key=${keyA}`))).toEqual([6, 4, 2, 0]);
    expect(minutes(await list(admin, 'outcome=rate_limited'))).toEqual([5]);
    expect(minutes(await list(admin, 'status=200&route=/api/v1/flights/{id}'))).toEqual([7, 6, 4]);
    expect(minutes(await list(admin, 'address=198.51.100.0/24'))).toEqual([5, 4, 1, 0]);
    expect(minutes(await list(admin, 'address=2001:db8::/32'))).toEqual([7, 3]);
    expect(minutes(await list(admin, 'address=203.0.113.9'))).toEqual([6, 2]);
    expect(minutes(await list(admin, 'from=2026-11-22T10:02:00Z&to=2026-11-22T10:05:00Z'))).toEqual([4, 3, 2]);
  });

  it('pages by cursor without gaps or repeats, and refuses a cursor made for other filters', async () => {
    const admin = await h.signedIn();
    const { keyA } = await seeded(admin);
    const first = await list(admin, 'limit=3');
    const second = await list(admin, `limit=3&cursor=${first.next_cursor}`);
    const third = await list(admin, `limit=3&cursor=${second.next_cursor}`);
    expect([minutes(first), minutes(second), minutes(third)]).toEqual([
      [7, 6, 5],
      [4, 3, 2],
      [1, 0],
    ]);
    expect(third.next_cursor).toBeNull();
    const elsewhere = await admin.request('GET', `/backoffice/api/request-log?key=${keyA}&cursor=${first.next_cursor}`);
    expectProblem(elsewhere, 400, 'invalid_request');
  });

  it('answers 400 for a malformed address or status, and 403 without api_keys:manage', async () => {
    const admin = await h.signedIn();
    expectProblem(await admin.request('GET', '/backoffice/api/request-log?address=10.0.0.1/8'), 400, 'invalid_request');
    expectProblem(await admin.request('GET', '/backoffice/api/request-log?status=abc'), 400, 'invalid_request');
    for (const from of ['2026-02-30', '0000-01-01', '2026-11-22T25:00Z'])
      expectProblem(await admin.request('GET', `/backoffice/api/request-log?from=${from}`), 400, 'invalid_request');
    const crew = await h.signIn((await h.user(admin.tenantId, ['crew'])).email);
    expectProblem(await crew.request('GET', '/backoffice/api/request-log'), 403, 'permission_denied');
    expectProblem(await crew.request('GET', '/backoffice/api/request-log/export'), 403, 'permission_denied');
  });

  it('shows a tenant only its own entries', async () => {
    const admin = await h.signedIn();
    await seeded(admin);
    const other = await h.signedIn();
    expect((await list(other, '')).data).toEqual([]);
  });

  it('exports the filtered entries as NDJSON, one entry a line, newest first', async () => {
    const admin = await h.signedIn();
    const { keyA } = await seeded(admin);
    const response = await admin.request('GET', `/backoffice/api/request-log/export?key=${keyA}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = response.body.trimEnd().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as RequestLogEntry);
    expect(entries.map((e) => (Date.parse(e.at) - T0) / 60_000)).toEqual([6, 4, 2, 0]);
    expect(entries[0]).toEqual((await list(admin, `key=${keyA}&limit=1`)).data[0]);
  });
});
